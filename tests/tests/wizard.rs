//! The ticket wizard walked down every path, with its state saved and restored
//! between every pair of steps.

use elicit_core::__private::testing::{Flow, Poll, WizardState};
use elicit_core::Action;
use elicit_core::Revision;
use elicit_core::wizard::{Outcome, WizardError};
use elicit_examples::forms::Size;
use elicit_examples::ticket::{Cinema, TicketOrder};
use serde_json::{Value, json};

type Answer = (&'static str, Option<Value>);

fn accept(v: Value) -> Answer {
    ("accept", Some(v))
}

struct Run {
    /// (step name, message, requestedSchema) of every request, in order.
    asked: Vec<(String, String, Value)>,
    outcome: Outcome<TicketOrder>,
}

/// Drives the wizard with `answers`; with `roundtrip`, the state goes through JSON
/// text and `Flow::restore` before every answer, and answers are handed over owned.
fn drive(answers: &[Answer], roundtrip: bool, revision: Revision) -> Run {
    drive_in(&Cinema::demo(), answers, roundtrip, revision)
}

/// [`drive`] in `cinema`.
fn drive_in(cinema: &Cinema, answers: &[Answer], roundtrip: bool, revision: Revision) -> Run {
    let mut flow = Flow::<TicketOrder>::new();
    let mut asked = Vec::new();
    let mut answers = answers.iter();
    loop {
        match flow.poll(cinema, revision).expect("poll") {
            Poll::Done(outcome) => {
                assert!(answers.next().is_none(), "answers left over");
                return Run { asked, outcome };
            }
            Poll::Ask(request) => {
                asked.push((
                    request.id.name.to_owned(),
                    request.message().to_owned(),
                    serde_json::from_str::<Value>(&request.params()).unwrap()["requestedSchema"]
                        .take(),
                ));
                if roundtrip {
                    let text = serde_json::to_string(flow.state()).unwrap();
                    let state: WizardState = serde_json::from_str(&text).unwrap();
                    flow = Flow::restore(state).expect("restore");
                }
                let (action, content) =
                    answers.next().expect("the wizard asked more than expected");
                let action: Action = action.parse().expect("a known action");
                flow.answer(cinema, action, content.clone())
                    .expect("answer");
            }
        }
    }
}

fn both(answers: &[Answer]) -> Run {
    let plain = drive(answers, false, Revision::V2025_11_25);
    let restored = drive(answers, true, Revision::V2025_11_25);
    assert_eq!(plain.asked, restored.asked, "a restored flow asks the same");
    assert_eq!(
        format!("{:?}", plain.outcome),
        format!("{:?}", restored.outcome)
    );
    plain
}

fn names(run: &Run) -> Vec<&str> {
    run.asked.iter().map(|(n, _, _)| n.as_str()).collect()
}

#[test]
fn happy_path_with_popcorn() {
    let run = both(&[
        accept(json!({"date": "2025-02-03"})),
        accept(json!({"seat": "A2"})),
        accept(json!({"popcorn": true, "drink": "cola"})),
        accept(json!({"size": "Large"})),
    ]);
    assert_eq!(names(&run), ["date", "seat", "snacks", "size"]);
    let Outcome::Completed(order) = run.outcome else {
        panic!("not completed: {:?}", run.outcome)
    };
    assert_eq!(order.date.date, "2025-02-03");
    assert_eq!(order.seat.seat, "A2");
    assert!(order.snacks.popcorn);
    assert_eq!(order.size.map(|s| s.size), Some(Size::Large));
}

#[test]
fn seat_step_offers_the_free_seats_of_the_chosen_date() {
    let run = drive(
        &[accept(json!({"date": "2025-02-04"})), ("cancel", None)],
        false,
        Revision::V2025_06_18,
    );
    let (_, message, schema) = &run.asked[1];
    assert_eq!(message, "Pick a seat for 2025-02-04");
    assert_eq!(
        schema,
        &json!({
            "type": "object",
            "properties": {"seat": {
                "type": "string", "title": "Seat",
                "description": "Row letter and seat number.", "enum": ["C1"]
            }},
            "required": ["seat"]
        })
    );
}

#[test]
fn no_popcorn_skips_the_size_step() {
    let run = both(&[
        accept(json!({"date": "2025-02-03"})),
        accept(json!({"seat": "B4"})),
        accept(json!({})),
    ]);
    assert_eq!(names(&run), ["date", "seat", "snacks"]);
    let Outcome::Completed(order) = run.outcome else {
        panic!("{:?}", run.outcome)
    };
    assert!(
        !order.snacks.popcorn,
        "the default fills the missing checkbox"
    );
    assert!(order.size.is_none());
}

/// The date step offers the days with seats; a day it did not offer (2025-02-01 is
/// sold out) is refused by the form's own rule and asked again.
#[test]
fn the_date_step_offers_the_days_with_seats() {
    let run = both(&[
        accept(json!({"date": "2025-02-01"})),
        accept(json!({"date": "2025-02-03"})),
        accept(json!({"seat": "A1"})),
        accept(json!({"popcorn": false})),
    ]);
    assert_eq!(names(&run), ["date", "date", "seat", "snacks"]);
    assert_eq!(
        run.asked[0].2["properties"]["date"],
        json!({"type": "string", "title": "Date", "description": "The day of the show.",
               "enum": ["2025-02-03", "2025-02-04"]})
    );
    let message = &run.asked[1].1;
    assert!(
        message.starts_with("Date: \"2025-02-01\" is not one of the options"),
        "{message}"
    );
    assert!(
        message.ends_with("Which day would you like to go?"),
        "{message}"
    );
    assert!(matches!(run.outcome, Outcome::Completed(_)));
}

/// With every show sold out the date is typed (a date field), and a day without seats
/// is asked again with the check's reason.
#[test]
fn a_sold_out_day_is_refused_with_the_reason() {
    let mut cinema = Cinema::default();
    cinema.add_show("2025-02-01", &[]);
    let answers = [accept(json!({"date": "2025-02-01"})), ("cancel", None)];
    for roundtrip in [false, true] {
        let run = drive_in(&cinema, &answers, roundtrip, Revision::V2025_11_25);
        assert_eq!(run.asked[0].2["properties"]["date"]["format"], "date");
        let message = &run.asked[1].1;
        assert!(
            message.starts_with("No seats left on 2025-02-01 — pick another day."),
            "{message}"
        );
        assert!(
            message.ends_with("Every show is sold out. Which day would you like to go?"),
            "{message}"
        );
        assert!(matches!(run.outcome, Outcome::Cancelled(s) if s.name == "date"));
    }
}

#[test]
fn invalid_answer_is_asked_again_with_the_validation_message() {
    let run = both(&[
        accept(json!({"date": "Feb 3"})),
        accept(json!({"date": "2025-02-03"})),
        ("cancel", None),
    ]);
    assert!(
        run.asked[1]
            .1
            .starts_with("Date: \"Feb 3\" is not one of the options"),
        "{}",
        run.asked[1].1
    );
    assert!(matches!(run.outcome, Outcome::Cancelled(s) if s.name == "seat" && s.index == 1));
}

#[test]
fn a_seat_that_was_not_offered_is_refused() {
    let run = both(&[
        accept(json!({"date": "2025-02-04"})),
        accept(json!({"seat": "A1"})),
        accept(json!({"seat": "C1"})),
        ("decline", None),
    ]);
    assert_eq!(names(&run), ["date", "seat", "seat", "snacks"]);
    assert!(
        run.asked[2]
            .1
            .starts_with("Seat: \"A1\" is not one of the options"),
        "{}",
        run.asked[2].1
    );
    assert!(matches!(run.outcome, Outcome::Declined(s) if s.name == "snacks"));
}

#[test]
fn attempts_run_out() {
    let run = both(&[
        accept(json!({"date": "2025-02-01"})),
        accept(json!({"date": "2030-01-01"})),
        accept(json!({"date": "2025-02-01"})),
    ]);
    assert_eq!(run.asked.len(), 3);
    match run.outcome {
        Outcome::Failed { step, reason, .. } => {
            assert_eq!((step.index, step.name), (0, "date"));
            assert!(reason.contains("is not one of the options"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn decline_and_cancel_at_every_step() {
    let prefix = [
        accept(json!({"date": "2025-02-03"})),
        accept(json!({"seat": "A1"})),
        accept(json!({"popcorn": true})),
    ];
    for step in 0..4 {
        for action in ["decline", "cancel"] {
            let mut answers: Vec<Answer> = prefix[..step].to_vec();
            answers.push((action, None));
            let run = both(&answers);
            match (&run.outcome, action, step) {
                // Declining the optional size step skips it: the order completes.
                (Outcome::Completed(order), "decline", 3) => assert!(order.size.is_none()),
                (Outcome::Declined(s), "decline", _) => assert_eq!(s.index, step),
                (Outcome::Cancelled(s), "cancel", _) => assert_eq!(s.index, step),
                (other, _, _) => panic!("{action} at step {step}: {other:?}"),
            }
        }
    }
}

#[test]
fn unknown_action_is_an_error_and_the_question_stays() {
    let cinema = Cinema::demo();
    let mut flow = Flow::<TicketOrder>::new();
    assert!(matches!(
        flow.poll(&cinema, Revision::V2025_11_25),
        Ok(Poll::Ask(_))
    ));
    // The action arrives as text; an unknown one never reaches the flow.
    let err = "reject".parse::<Action>().unwrap_err();
    assert!(
        err.to_string()
            .contains("\"accept\", \"decline\" or \"cancel\"")
    );
    assert!(
        matches!(flow.poll(&cinema, Revision::V2025_11_25), Ok(Poll::Ask(r)) if r.id.index == 0)
    );
}

#[test]
fn answer_before_poll_and_after_the_end_are_errors() {
    let cinema = Cinema::demo();
    let mut flow = Flow::<TicketOrder>::new();
    assert!(matches!(
        flow.answer(&cinema, Action::Accept, None),
        Err(WizardError::NotAsked)
    ));
    flow.poll(&cinema, Revision::V2025_11_25).unwrap();
    flow.answer(&cinema, Action::Cancel, None).unwrap();
    assert!(matches!(
        flow.poll(&cinema, Revision::V2025_11_25),
        Ok(Poll::Done(Outcome::Cancelled(_)))
    ));
    assert!(matches!(
        flow.answer(&cinema, Action::Accept, None),
        Err(WizardError::Finished)
    ));
}

fn state_after_date() -> Value {
    let cinema = Cinema::demo();
    let mut flow = Flow::<TicketOrder>::new();
    flow.poll(&cinema, Revision::V2025_11_25).unwrap();
    flow.answer(&cinema, Action::Accept, Some(json!({"date": "2025-02-03"})))
        .unwrap();
    flow.poll(&cinema, Revision::V2025_11_25).unwrap();
    serde_json::to_value(flow.state()).unwrap()
}

fn restore(state: Value) -> Result<Flow<TicketOrder>, WizardError> {
    match serde_json::from_value::<WizardState>(state) {
        Ok(state) => Flow::restore(state),
        Err(e) => Err(WizardError::Corrupt(e.to_string())),
    }
}

#[test]
fn saved_state_carries_version_answers_and_offered_choices() {
    let state = state_after_date();
    assert_eq!(state["v"], 1);
    assert_eq!(state["done"][0]["answered"], json!({"date": "2025-02-03"}));
    assert!(state["pending"]["prepared"].to_string().contains("A1"));
    assert!(restore(state).is_ok());
}

#[test]
fn tampered_or_foreign_state_is_a_typed_error() {
    let good = state_after_date();
    let mut cases: Vec<(Value, &str)> = Vec::new();
    let mut v = good.clone();
    v["v"] = json!(2);
    cases.push((v, "format version 2"));
    let mut v = good.clone();
    v["wizard"] = json!("other::Wizard");
    cases.push((v, "another wizard"));
    let mut v = good.clone();
    v["done"][0]["answered"] = json!({"date": "not a date"});
    cases.push((v, "step 1 is invalid"));
    let mut v = good.clone();
    v["done"] = json!(["skipped", "skipped", "skipped", "skipped", "skipped"]);
    cases.push((v, "more steps"));
    let mut v = good.clone();
    v["attempts"] = json!(7);
    cases.push((v, "more attempts"));
    let mut v = good.clone();
    v["pending"]["prepared"]["options"] = json!([["nope", [["X", null]]]]);
    cases.push((v, "no field `nope`"));
    let mut v = good.clone();
    v["done"] = json!("garbage");
    cases.push((v, "invalid"));
    for (state, expected) in cases {
        let err = restore(state.clone())
            .err()
            .unwrap_or_else(|| panic!("accepted {state}"));
        assert!(
            err.to_string().contains(expected),
            "{err} (wanted {expected:?})"
        );
    }
}

#[test]
fn a_forged_completed_state_with_skipped_required_steps_fails_cleanly() {
    let mut v = state_after_date();
    v["done"] = json!(["skipped", "skipped", "skipped", "skipped"]);
    v["end"] = json!("completed");
    v.as_object_mut().unwrap().remove("pending");
    let mut flow = restore(v).unwrap();
    assert!(matches!(
        flow.poll(&Cinema::demo(), Revision::V2025_11_25),
        Err(WizardError::Finished)
    ));
}

#[test]
fn a_forged_open_state_with_skipped_required_steps_fails_cleanly() {
    let mut v = state_after_date();
    v["done"] = json!(["skipped", "skipped", "skipped"]);
    v.as_object_mut().unwrap().remove("pending");
    let mut flow = restore(v).unwrap();
    // The size step is skipped (no popcorn answer), and the order has no date.
    assert!(matches!(
        flow.poll(&Cinema::demo(), Revision::V2025_11_25),
        Err(WizardError::Corrupt(_))
    ));
}

/// A one-step wizard whose `prepare` hook returns the context: any runtime changes.
mod offered {
    use elicit_core::wizard::Prepared;
    use elicit_core::{Elicit, Wizard};
    use elicit_examples::forms::Size;
    use serde::Deserialize;

    #[derive(Debug, Elicit, Deserialize)]
    pub struct Pick {
        pub size: Size,
        pub seat: String,
    }

    #[derive(Debug, Wizard)]
    #[wizard(context = Prepared)]
    pub struct Offered {
        #[step(message = "Pick", prepare = given)]
        pub pick: Pick,
    }

    fn given(prepared: &Prepared, _: &OfferedProgress) -> Prepared {
        prepared.clone()
    }
}

/// Answers `answer` (which the step refuses) and polls: the step asks again; the
/// request that does.
fn refused(
    flow: &mut Flow<offered::Offered>,
    prepared: &elicit_core::wizard::Prepared,
    answer: Value,
) -> elicit_core::__private::testing::Step {
    flow.answer(prepared, Action::Accept, Some(answer)).unwrap();
    match flow.poll(prepared, Revision::V2025_11_25).unwrap() {
        Poll::Ask(again) => again,
        Poll::Done(_) => panic!("a refused answer is asked again"),
    }
}

/// The flow a saved state restores to, which saves the very same text again.
fn restored_as_saved(text: &str) -> Flow<offered::Offered> {
    let flow = Flow::<offered::Offered>::restore(serde_json::from_str(text).unwrap()).unwrap();
    assert_eq!(serde_json::to_string(flow.state()).unwrap(), text);
    flow
}

fn offered_state(flow: &Flow<offered::Offered>) -> Value {
    serde_json::to_value(flow.state()).unwrap()["pending"]["prepared"]["options"].clone()
}

#[test]
fn offered_choices_are_saved_exactly_as_offered_and_restore_to_the_same_form() {
    use elicit_core::Choice;
    use elicit_core::wizard::Prepared;
    let prepared = Prepared::new()
        .options(
            "size",
            [
                Choice::owned("Large", None),
                Choice::owned("Small", Some("Tiny".to_owned())),
                Choice::owned("Medium", Some("Medium (M)".to_owned())),
            ],
        )
        .options(
            "seat",
            [Choice::new("A1", None), Choice::new("B2", Some("Window"))],
        );
    let mut flow = Flow::<offered::Offered>::new();
    let Poll::Ask(request) = flow.poll(&prepared, Revision::V2025_11_25).unwrap() else {
        panic!("the step asks")
    };
    let schema =
        serde_json::from_str::<Value>(&request.params()).unwrap()["requestedSchema"].take();
    // The narrowed enum takes its variants' titles where none was offered.
    assert_eq!(
        schema["properties"]["size"]["oneOf"],
        json!([
            {"const": "Large", "title": "Large (L)"},
            {"const": "Small", "title": "Tiny"},
            {"const": "Medium", "title": "Medium (M)"}
        ])
    );
    assert_eq!(
        schema["properties"]["seat"]["oneOf"],
        json!([{"const": "A1", "title": "A1"}, {"const": "B2", "title": "Window"}])
    );
    // The state saves what the hook offered: a title only where one was given.
    let saved = json!([
        [
            "size",
            [["Large", null], ["Small", "Tiny"], ["Medium", "Medium (M)"]]
        ],
        ["seat", [["A1", null], ["B2", "Window"]]]
    ]);
    assert_eq!(offered_state(&flow), saved);
    let text = serde_json::to_string(flow.state()).unwrap();
    let restored = Flow::<offered::Offered>::restore(serde_json::from_str(&text).unwrap()).unwrap();
    assert_eq!(serde_json::to_string(restored.state()).unwrap(), text);
    assert_eq!(restored.state(), flow.state());
    let unrestored: WizardState = serde_json::from_str(&text).unwrap();
    assert_eq!(&unrestored, flow.state());
    let mut restored = restored;
    let Poll::Ask(again) = restored.poll(&prepared, Revision::V2025_11_25).unwrap() else {
        panic!("the step asks")
    };
    assert_eq!(again.form(), request.form());
    // Answers are checked against the choices offered.
    let again = refused(
        &mut restored,
        &prepared,
        json!({"size": "Large", "seat": "C3"}),
    );
    assert!(again.message().contains("C3"), "{}", again.message());
    assert_eq!(offered_state(&restored), saved);
    restored
        .answer(
            &prepared,
            Action::Accept,
            Some(json!({"size": "Small", "seat": "B2"})),
        )
        .unwrap();
    let Poll::Done(Outcome::Completed(done)) =
        restored.poll(&prepared, Revision::V2025_11_25).unwrap()
    else {
        panic!("completed")
    };
    assert_eq!(
        (done.pick.size, done.pick.seat.as_str()),
        (Size::Small, "B2")
    );
}

#[test]
fn refused_runtime_changes_stay_in_the_state_as_offered() {
    use elicit_core::Choice;
    use elicit_core::wizard::Prepared;
    let cases = [
        (
            Prepared::new().options("size", [Choice::owned("Huge", None)]),
            json!([["size", [["Huge", null]]]]),
            "\"Huge\" is not a variant of field `size`",
        ),
        // Refused only once the form is built, after the choices moved into it.
        (
            Prepared::new()
                .options("seat", [Choice::new("A1", None), Choice::new("A1", None)])
                .options("size", [Choice::new("Large", Some("XL"))]),
            json!([
                ["seat", [["A1", null], ["A1", null]]],
                ["size", [["Large", "XL"]]]
            ]),
            "the option \"A1\" is offered twice",
        ),
        (
            Prepared::new()
                .options("seat", [Choice::new("A1", None)])
                .default_value("seat", 7),
            json!([["seat", [["A1", null]]]]),
            "the default for `seat` must be text",
        ),
    ];
    for (prepared, saved, message) in cases {
        let mut flow = Flow::<offered::Offered>::new();
        let err = flow.poll(&prepared, Revision::V2025_11_25).unwrap_err();
        assert!(matches!(err, WizardError::Prepare { .. }), "{err:?}");
        assert!(err.to_string().contains(message), "{err}");
        assert_eq!(offered_state(&flow), saved);
        // Asked again, the same changes are refused the same way.
        let again = flow.poll(&prepared, Revision::V2025_11_25).unwrap_err();
        assert_eq!(again.to_string(), err.to_string());
    }
}

#[test]
fn offering_a_field_again_replaces_its_choices() {
    use elicit_core::Choice;
    use elicit_core::wizard::Prepared;
    let prepared = Prepared::new()
        .options("seat", [Choice::new("A1", None)])
        .options("seat", [Choice::new("B2", None), Choice::new("C3", None)]);
    let mut flow = Flow::<offered::Offered>::new();
    let Poll::Ask(request) = flow.poll(&prepared, Revision::V2025_11_25).unwrap() else {
        panic!("the step asks")
    };
    assert_eq!(
        serde_json::from_str::<Value>(&request.params()).unwrap()["requestedSchema"]["properties"]
            ["seat"]["enum"],
        json!(["B2", "C3"])
    );
    assert_eq!(
        offered_state(&flow),
        json!([["seat", [["B2", null], ["C3", null]]]])
    );
    // A state naming a field twice is refused, not merged.
    let mut state = serde_json::to_value(flow.state()).unwrap();
    state["pending"]["prepared"]["options"] =
        json!([["seat", [["B2", null]]], ["seat", [["C3", null]]]]);
    let err =
        Flow::<offered::Offered>::restore(serde_json::from_value(state).unwrap()).unwrap_err();
    assert!(err.to_string().contains("given twice"), "{err}");
}

/// A hook's message is asked, saved, restored and repeated with a refusal's reason,
/// alone or with options (it is kept once, in the step's built form).
#[test]
fn prepared_message_is_asked_saved_and_restored() {
    use elicit_core::Choice;
    use elicit_core::wizard::Prepared;
    let alone = Prepared::new().message("Pick for Saturday");
    let with_options = alone
        .clone()
        .options("seat", [Choice::new("A1", None)])
        .default_value("seat", "A1");
    for prepared in [alone, with_options] {
        let mut flow = Flow::<offered::Offered>::new();
        let Poll::Ask(request) = flow.poll(&prepared, Revision::V2025_11_25).unwrap() else {
            panic!("the step asks")
        };
        assert_eq!(request.message(), "Pick for Saturday");
        let params = serde_json::from_str::<Value>(&request.params()).unwrap();
        assert_eq!(params["message"], "Pick for Saturday");
        assert_eq!(
            serde_json::from_str::<Value>(&request.params()).unwrap(),
            params
        );
        let saved = serde_json::to_value(flow.state()).unwrap();
        assert_eq!(
            saved["pending"]["prepared"]["message"], "Pick for Saturday",
            "{saved}"
        );
        // Polled again, restored: the same question, the same saved bytes.
        let Poll::Ask(same) = flow.poll(&prepared, Revision::V2025_11_25).unwrap() else {
            panic!("the step asks")
        };
        assert_eq!(same.message(), "Pick for Saturday");
        let text = serde_json::to_string(flow.state()).unwrap();
        let mut restored =
            Flow::<offered::Offered>::restore(serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(serde_json::to_string(restored.state()).unwrap(), text);
        assert_eq!(restored.state(), flow.state());
        // Refused (not a size): asked again with the reason, then the hook's message.
        let again = refused(
            &mut restored,
            &prepared,
            json!({"size": "Huge", "seat": "A1"}),
        );
        assert!(
            again.message().ends_with("\n\nPick for Saturday"),
            "{}",
            again.message()
        );
        assert!(again.message().contains("Huge"), "{}", again.message());
        let saved = serde_json::to_value(restored.state()).unwrap();
        assert_eq!(saved["pending"]["prepared"]["message"], "Pick for Saturday");
    }
}

/// A list the server keeps as an `Arc<[Choice]>` goes into the step's form as it is
/// (the very same list, not a copy), is saved and restored like any offered list, and
/// stays in the state as offered when the changes are refused.
#[test]
fn shared_choices_are_offered_without_a_copy() {
    use elicit_core::Choice;
    use elicit_core::wizard::Prepared;
    use std::sync::Arc;
    let seats: Arc<[Choice]> = vec![Choice::owned("A1", None), Choice::owned("B2", None)].into();
    let prepared = Prepared::new().options("seat", Arc::clone(&seats));
    let mut flow = Flow::<offered::Offered>::new();
    let Poll::Ask(request) = flow.poll(&prepared, Revision::V2025_11_25).unwrap() else {
        panic!("the step asks")
    };
    let offered = request
        .form()
        .field("seat")
        .unwrap()
        .kind
        .options()
        .unwrap();
    assert!(
        std::ptr::eq(offered, &*seats),
        "the form holds the list itself"
    );
    // The same as offering copies of the choices, on the wire and in the state.
    let mut copied = Flow::<offered::Offered>::new();
    let copies = Prepared::new().options("seat", seats.iter().cloned().collect::<Vec<_>>());
    let Poll::Ask(copy) = copied.poll(&copies, Revision::V2025_11_25).unwrap() else {
        panic!("the step asks")
    };
    assert_eq!(
        serde_json::from_str::<Value>(&request.params()).unwrap(),
        serde_json::from_str::<Value>(&copy.params()).unwrap()
    );
    assert_eq!(
        serde_json::to_string(flow.state()).unwrap(),
        serde_json::to_string(copied.state()).unwrap()
    );
    let text = serde_json::to_string(flow.state()).unwrap();
    let mut restored = restored_as_saved(&text);
    let again = refused(
        &mut restored,
        &prepared,
        json!({"size": "Small", "seat": "C3"}),
    );
    assert!(again.message().contains("C3"), "{}", again.message());
    drop((request, flow));
    assert_eq!(Arc::strong_count(&seats), 2, "the prepared and the list");
}

/// A list kept as given (shared or static) offered for a text field and refused once
/// the form is built goes back to the state as it was offered.
#[test]
fn a_refused_list_stays_in_the_state() {
    use elicit_core::wizard::Prepared;
    use elicit_core::{Choice, Choices};
    use std::sync::Arc;
    static TWICE: [Choice; 2] = [Choice::new("A1", None), Choice::new("A1", None)];
    let shared: Arc<[Choice]> = TWICE.to_vec().into();
    for list in [Choices::from(shared), Choices::from(&TWICE)] {
        let refused = Prepared::new().options("seat", list);
        let mut flow = Flow::<offered::Offered>::new();
        let err = flow.poll(&refused, Revision::V2025_11_25).unwrap_err();
        assert!(err.to_string().contains("offered twice"), "{err}");
        assert_eq!(
            offered_state(&flow),
            json!([["seat", [["A1", null], ["A1", null]]]])
        );
    }
    // Not moved at all (refused before any field changed): kept as offered too.
    let unknown = Prepared::new()
        .options("nope", &TWICE)
        .options("seat", &TWICE);
    let mut flow = Flow::<offered::Offered>::new();
    let err = flow.poll(&unknown, Revision::V2025_11_25).unwrap_err();
    assert!(err.to_string().contains("no field `nope`"), "{err}");
    assert_eq!(
        offered_state(&flow),
        json!([
            ["nope", [["A1", null], ["A1", null]]],
            ["seat", [["A1", null], ["A1", null]]]
        ])
    );
}

/// Changes to `offered::Pick`: a message, two seats, one size.
fn pick_changes() -> elicit_core::wizard::Prepared {
    use elicit_core::Choice;
    elicit_core::wizard::Prepared::new()
        .message("Pick a seat, any seat")
        .options("seat", ["A1", "B2"].map(|s| Choice::owned(s, None)))
        .options("size", [Choice::owned("Small", None)])
}

/// A `PreparedForm` is built once and offered by any number of flows: every flow's
/// step asks the very same form, and the wire, the state and a restored flow are the
/// same as with the `Prepared` it was built from.
#[test]
fn a_prepared_form_is_shared_by_every_flow() {
    use elicit_core::Elicit;
    use elicit_core::wizard::{Prepared, PreparedForm};
    let rev = Revision::V2025_11_25;
    let prepared = pick_changes().default_value("seat", "B2");
    let built: PreparedForm = prepared.clone().build(offered::Pick::form()).unwrap();
    let shared = Prepared::from(&built);
    assert_eq!(
        shared,
        Prepared::from(&built),
        "the same form offered twice"
    );
    assert_ne!(shared, prepared);

    let ask = |flow: &mut Flow<offered::Offered>, ctx: &Prepared| match flow.poll(ctx, rev) {
        Ok(Poll::Ask(request)) => request,
        other => panic!("the step asks: {other:?}"),
    };
    let (mut one, mut two, mut plain) = (Flow::new(), Flow::new(), Flow::new());
    let (a, b, c) = (
        ask(&mut one, &shared),
        ask(&mut two, &shared),
        ask(&mut plain, &prepared),
    );
    assert!(
        std::ptr::eq(a.form(), b.form()),
        "both flows ask the one form"
    );
    assert!(std::ptr::eq(a.form(), built.form()));
    assert!(!std::ptr::eq(a.form(), c.form()));
    assert_eq!(
        serde_json::from_str::<Value>(&a.params()).unwrap(),
        serde_json::from_str::<Value>(&c.params()).unwrap()
    );
    assert_eq!(a.message(), "Pick a seat, any seat");
    let text = serde_json::to_string(one.state()).unwrap();
    assert_eq!(text, serde_json::to_string(plain.state()).unwrap());
    assert_eq!(one.state(), plain.state());

    // Restored, the state builds the form again: equal, not shared.
    let mut restored = restored_as_saved(&text);
    let again = refused(
        &mut restored,
        &shared,
        json!({"size": "Large", "seat": "A1"}),
    );
    assert_eq!(
        serde_json::from_str::<Value>(&again.params()).unwrap()["requestedSchema"],
        serde_json::from_str::<Value>(&a.params()).unwrap()["requestedSchema"]
    );
    assert!(again.message().contains("Large"), "{}", again.message());

    // Answers are checked against the shared form's choices; the default fills in.
    let again = refused(&mut one, &shared, json!({"size": "Small", "seat": "C3"}));
    assert!(again.message().contains("C3"), "{}", again.message());
    one.answer(&shared, Action::Accept, Some(json!({"size": "Small"})))
        .unwrap();
    match one.poll(&shared, rev).unwrap() {
        Poll::Done(Outcome::Completed(done)) => {
            assert_eq!(
                (done.pick.size, done.pick.seat.as_str()),
                (Size::Small, "B2")
            );
        }
        other => panic!("completed: {other:?}"),
    }
}

/// A `PreparedForm` is checked when built, and offered only to the form it was built
/// on.
#[test]
fn a_prepared_form_is_checked_when_built_and_kept_to_its_form() {
    use elicit_core::wizard::Prepared;
    use elicit_core::{Choice, Elicit};
    use elicit_examples::ticket::SeatChoice;
    let empty = Prepared::new().options("seat", Vec::<Choice>::new());
    let error = empty.build(offered::Pick::form()).unwrap_err();
    assert!(error.to_string().contains("seat"), "{error}");
    let unknown = Prepared::new().options("row", [Choice::owned("A", None)]);
    let error = unknown.build(offered::Pick::form()).unwrap_err();
    assert!(error.to_string().contains("`row`"), "{error}");

    let elsewhere = Prepared::new()
        .options("seat", [Choice::owned("A1", None)])
        .build(SeatChoice::form())
        .unwrap();
    let mut flow = Flow::<offered::Offered>::new();
    match flow.poll(&Prepared::from(&elsewhere), Revision::V2025_11_25) {
        Err(WizardError::Prepare { message, .. }) => {
            assert!(message.contains("another step's form"), "{message}");
        }
        other => panic!("a form built for another step is refused: {other:?}"),
    }
}

/// A `Prepared` that came from a `PreparedForm` writes out as the changes it was built
/// from, and changes made to it go on top of the form's (it is then built per flow).
#[test]
fn changes_on_top_of_a_prepared_form_are_kept() {
    use elicit_core::wizard::Prepared;
    use elicit_core::{Choice, Elicit};
    let rev = Revision::V2025_11_25;
    let prepared = pick_changes();
    let built = prepared.clone().build(offered::Pick::form()).unwrap();
    assert_eq!(
        serde_json::to_value(Prepared::from(&built)).unwrap(),
        serde_json::to_value(&prepared).unwrap()
    );

    let ask = |ctx: &Prepared| {
        let mut flow = Flow::<offered::Offered>::new();
        match flow.poll(ctx, rev) {
            Ok(Poll::Ask(request)) => (
                request.message().to_owned(),
                serde_json::from_str::<Value>(&request.params()).unwrap(),
            ),
            other => panic!("the step asks: {other:?}"),
        }
    };
    let (message, params) = ask(&Prepared::from(&built).message("Another message"));
    assert_eq!(message, "Another message");
    assert_eq!(
        params["requestedSchema"],
        ask(&prepared).1["requestedSchema"]
    );

    let (message, params) =
        ask(&Prepared::from(&built).options("seat", [Choice::owned("C3", None)]));
    assert_eq!(message, "Pick a seat, any seat");
    let schema = &params["requestedSchema"]["properties"];
    assert_eq!(schema["seat"]["enum"], json!(["C3"]));
    assert_eq!(schema["size"]["oneOf"][0]["const"], json!("Small"));
    assert_eq!(schema["size"]["oneOf"].as_array().map(Vec::len), Some(1));

    // Built again from such changes: a form of its own, not the first one.
    let again = Prepared::from(&built)
        .default_value("seat", "B2")
        .build(offered::Pick::form())
        .unwrap();
    assert!(!std::ptr::eq(again.form(), built.form()));
    assert!(again.form().field("seat").is_some_and(|f| !f.required));
}

/// Options offered for one call on a text field are values the field takes: each is
/// checked against the field's format and lengths when the question is built, so an
/// option that is no e-mail address, or too long, is refused there, never offered.
#[test]
fn options_on_a_text_field_keep_its_format_and_lengths() {
    use elicit_core::wizard::Prepared;
    use elicit_core::{Choice, Elicit};
    use elicit_examples::forms::PurgeApproval;

    let form = PurgeApproval::form();
    let long = format!("{}@example.com", "a".repeat(250));
    for (option, expected) in [
        ("not an address", "is not a valid email"),
        (
            long.as_str(),
            "has 262 characters, outside min_length..=max_length (..=254)",
        ),
    ] {
        let prepared = Prepared::new().options(
            "approver",
            [
                Choice::owned("ops@example.com", None),
                Choice::owned(option, None),
            ],
        );
        let error = prepared.build(form).unwrap_err().to_string();
        assert!(
            error.contains("field `approver`") && error.contains(expected),
            "{expected}: {error}"
        );
    }
    // Addresses that fit are offered, and an answer is one of them.
    let built = Prepared::new()
        .options(
            "approver",
            [
                Choice::owned("ops@example.com", None),
                Choice::owned("sre@example.com", None),
            ],
        )
        .build(form)
        .unwrap();
    let strict = elicit_core::Strictness::Strict;
    let other = json!({"confirm": true, "approver": "me@example.com"});
    assert!(built.form().validate(Some(&other), strict).is_err());
    let offered = json!({"confirm": true, "approver": "sre@example.com"});
    assert!(built.form().validate(Some(&offered), strict).is_ok());
}

/// `Prepared::range` tightens a number field's bounds for one question, never widens
/// them, takes only number fields, and a default must lie inside; the schema and the
/// validation of the answer follow the tightened bounds.
#[test]
fn a_range_tightens_a_number_field_and_is_checked() {
    use elicit_core::Elicit;
    use elicit_core::wizard::Prepared;
    use elicit_examples::forms::PurgeApproval;

    let form = PurgeApproval::form();
    let built = Prepared::new()
        .range("retention_days", 90, 3650)
        .default_value("retention_days", 90)
        .build(form)
        .unwrap();
    let schema = serde_json::to_value(
        built
            .form()
            .requested_schema(Revision::V2025_11_25)
            .unwrap(),
    )
    .unwrap();
    let days = &schema["properties"]["retention_days"];
    assert_eq!(
        (days["minimum"].clone(), days["maximum"].clone()),
        (json!(90), json!(3650))
    );
    assert_eq!(days["default"], 90);
    // An answer below the call's days is refused by the form as asked.
    let strict = elicit_core::Strictness::Strict;
    let short = json!({"confirm": true, "approver": "a@example.com", "retention_days": 30});
    let error = built
        .form()
        .validate(Some(&short), strict)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("Retention days") && error.contains("90"),
        "{error}"
    );
    // Kept as offered: the call's days fill the field.
    let kept = json!({"confirm": true, "approver": "a@example.com"});
    let read = built.form().validate(Some(&kept), strict).unwrap();
    assert_eq!(read["retention_days"], 90);

    for (prepared, expected) in [
        (
            Prepared::new().range("retention_days", 0, 30),
            "not within the form's own 1..=3650",
        ),
        (
            Prepared::new().range("retention_days", 10, 5000),
            "not within the form's own 1..=3650",
        ),
        (
            Prepared::new().range("retention_days", 40, 30),
            "greater than the maximum",
        ),
        (
            Prepared::new().range("retention_days", 1.5, 30),
            "whole number",
        ),
        (Prepared::new().range("approver", 1, 30), "not a number"),
        (
            Prepared::new().range("missing", 1, 30),
            "no field `missing`",
        ),
        (
            Prepared::new()
                .range("retention_days", 90, 365)
                .default_value("retention_days", 30),
            "outside the field's bounds",
        ),
    ] {
        let error = prepared.build(form).unwrap_err().to_string();
        assert!(error.contains(expected), "{expected}: {error}");
    }
}
