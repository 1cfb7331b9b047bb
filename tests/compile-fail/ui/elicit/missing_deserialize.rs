use elicit_core::Elicit;

// Answers are parsed with serde, so a form also derives `Deserialize`.
#[derive(Elicit)]
struct Feedback {
    rating: u8,
}

fn main() {}
