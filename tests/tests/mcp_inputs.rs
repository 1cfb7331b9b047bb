//! Questions asked by key and in batches (`Session::inputs`) over real rmcp
//! connections: a key chosen by the server stable across rounds, answers in the first
//! call ignored unless the server opts in, the conformance server's batch of roots,
//! sampling and a form asked in one round with the valid answers kept while the rest are
//! asked again, only the requests the client declared, and a batch the client cannot
//! take refused in push mode. The client side is in `support/`.

use std::collections::BTreeMap;

use rmcp::model::{CallToolResponse, CallToolResult};
use serde_json::json;

mod support;
use support::*;

/// A question under a chosen key: the key is stable across rounds, and a client that
/// knows it may answer in the very first call (no requestState yet).
#[tokio::test]
async fn rounds_named_keys() {
    use elicit_core::{Elicit, Elicitation};
    use elicit_rmcp::{Asked, Input, Session};

    #[derive(Elicit, serde::Deserialize)]
    struct Name {
        #[elicit(min_length = 1)]
        name: String,
    }

    async fn greet(s: &mut Session) -> Asked<CallToolResult> {
        let mut answers = s
            .inputs(vec![Input::form::<Name>("user_name", "Your name?")])
            .await?;
        Ok(match answers.remove(0).typed::<Name>()? {
            Elicitation::Accept(n) => {
                CallToolResult::success(vec![rmcp::model::ContentBlock::text(format!(
                    "Hello, {}",
                    n.name
                ))])
            }
            _ => CallToolResult::success(vec![]),
        })
    }

    let client = TestClient::scripted(
        OneTool(elicitor(), |s| Box::pin(greet(s))),
        Era::Rounds,
        vec![],
    )
    .await;
    let first = client
        .call_tool_once(call("greet", json!({})))
        .await
        .unwrap();
    let CallToolResponse::InputRequired(first) = first else {
        panic!("asks")
    };
    assert!(first.input_requests.unwrap().contains_key("user_name"));
    // An invalid answer is asked again under the next key.
    let mut params = call("greet", json!({}));
    params.request_state = first.request_state;
    params.input_responses = Some(BTreeMap::from([(
        "user_name".into(),
        accept(json!({"name": ""})),
    )]));
    let again = client.call_tool_once(params).await.unwrap();
    let CallToolResponse::InputRequired(again) = again else {
        panic!("asks again")
    };
    let requests = serde_json::to_value(again.input_requests.unwrap()).unwrap();
    assert!(
        requests["user_name.1"]["params"]["message"]
            .as_str()
            .unwrap()
            .contains("Your name?")
    );
    // Answered in the first call, before any question was asked: ignored, and the
    // question is asked (a client cannot answer what no user was shown).
    let mut params = call("greet", json!({}));
    params.input_responses = Some(BTreeMap::from([
        ("user_name".into(), accept(json!({"name": "Alice"}))),
        ("unknown_extra_key".into(), accept(json!({"foo": "bar"}))),
    ]));
    let asked = client.call_tool_once(params.clone()).await.unwrap();
    let CallToolResponse::InputRequired(asked) = asked else {
        panic!("the question is asked: {asked:?}")
    };
    assert!(asked.input_requests.unwrap().contains_key("user_name"));

    // A server that opts in (a test harness) reads them, and ignores the extra keys.
    let harness = TestClient::scripted(
        OneTool(elicitor().with_first_round_answers(true), |s| {
            Box::pin(greet(s))
        }),
        Era::Rounds,
        vec![],
    )
    .await;
    let done = harness.call_tool_once(params).await.unwrap();
    let CallToolResponse::Complete(done) = done else {
        panic!("complete")
    };
    assert_eq!(text(&done), "Hello, Alice");
}

#[tokio::test]
async fn rounds_batch_asks_everything_in_one_round_and_keeps_partial_answers() {
    let tool = "test_input_required_result_multiple_inputs";
    let client = Scripted::new(Era::Rounds, vec![])
        .with_capabilities(json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}}));
    let client = TestClient::start(conformance_server(), client).await;
    let first = client
        .round(tool, json!({}), None, vec![])
        .await
        .expect("a result");
    let (requests, state) = asked(&first);
    let methods: Vec<(&str, &str)> = requests
        .iter()
        .map(|(k, r)| (k.as_str(), r["method"].as_str().unwrap()))
        .collect();
    assert_eq!(
        methods,
        [
            ("client_roots", "roots/list"),
            ("greeting", "sampling/createMessage"),
            ("user_name", "elicitation/create"),
        ]
    );
    // The greeting is answered, the name is not a name: only the name (with the problem)
    // and the roots are asked again; the greeting rides in the state.
    let sampled = json!({"role": "assistant", "content": {"type": "text", "text": "Hi there"},
        "model": "m", "stopReason": "endTurn"});
    let second = client
        .round(
            tool,
            json!({}),
            Some(&state),
            vec![
                ("greeting", sampled),
                (
                    "user_name",
                    json!({"action": "accept", "content": {"name": 5}}),
                ),
            ],
        )
        .await
        .expect("a result");
    let (requests, state2) = asked(&second);
    let keys: Vec<&str> = requests.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["client_roots", "user_name.1"]);
    let message = requests[1].1["params"]["message"].as_str().unwrap();
    assert!(
        message.contains("expected text, got a number") && message.ends_with("What is your name?"),
        "{message}"
    );
    assert_ne!(state, state2, "each round seals a new state");
    let third = client
        .round(
            tool,
            json!({}),
            Some(&state2),
            vec![
                (
                    "user_name.1",
                    json!({"action": "accept", "content": {"name": "Alice"}}),
                ),
                (
                    "client_roots",
                    json!({"roots": [{"uri": "file:///a"}, {"uri": "file:///b"}]}),
                ),
            ],
        )
        .await
        .expect("a result");
    let CallToolResponse::Complete(done) = third else {
        panic!("complete after every answer: {third:?}");
    };
    assert_eq!(text(&done), "Name: Alice; Greeting: Hi there; Roots: 2");
}

#[tokio::test]
async fn rounds_batch_asks_only_what_the_client_declared() {
    let tool = "test_input_required_result_capabilities";
    for (capabilities, keys) in [
        (json!({"sampling": {}}), vec!["sample_input"]),
        (json!({"elicitation": {}}), vec!["elicit_input"]),
        (
            json!({"elicitation": {}, "sampling": {}}),
            vec!["elicit_input", "sample_input"],
        ),
    ] {
        let client = Scripted::new(Era::Rounds, vec![]).with_capabilities(capabilities.clone());
        let client = TestClient::start(conformance_server(), client).await;
        let (requests, _) = asked(&client.round(tool, json!({}), None, vec![]).await.unwrap());
        let asked: Vec<&str> = requests.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(asked, keys, "{capabilities}");
    }
}

#[tokio::test]
async fn batch_with_a_request_the_client_cannot_take_is_an_error() {
    // Push mode (2025-11-25), no sampling capability: the batch refuses to send it.
    let client = TestClient::scripted(conformance_server(), Era::V1125, vec![]).await;
    let error = client
        .call("test_input_required_result_multiple_inputs", json!({}))
        .await
        .expect_err("no sampling capability");
    assert!(
        error
            .to_string()
            .contains("does not take sampling requests"),
        "{error}"
    );
}
