//! An answer approves only what its person was shown, over real rmcp connections:
//! answers nobody asked for never approve, a question that changed between rounds (more
//! files to purge, another count in an earlier question) is asked anew, and the purge
//! touches nothing outside its root: path tricks, a repository symlinked out of the
//! root, or swapped for another directory while the approval is open (pushed) or between
//! rounds. The client side is in `support/`.

use elicit_examples::servers::purge::SAMPLE_AGES;
use rmcp::model::{CallToolResponse, CallToolResult};
use serde_json::json;

mod support;
use support::*;

#[tokio::test]
async fn answers_nobody_asked_for_never_approve() {
    let logs = Logs::new("unsolicited");
    let client = TestClient::scripted(logs.server(), Era::Rounds, vec![]).await;
    let args = demo_purge(30);
    // An approval under the key the question will have, in the first call.
    let first = client
        .round(PURGE, args.clone(), None, vec![("ask0", approve(30))])
        .await
        .unwrap();
    let (requests, state) = asked(&first);
    assert_eq!(requests[0].0, "ask0");
    assert_eq!(logs.count("demo-repo"), SAMPLE_AGES.len());
    // With a valid state, an answer under a key this round did not ask is ignored too.
    let again = client
        .round(PURGE, args, Some(&state), vec![("ask0.1", approve(30))])
        .await
        .unwrap();
    asked(&again);
    assert_eq!(logs.count("demo-repo"), SAMPLE_AGES.len());
}

#[tokio::test]
async fn a_question_that_changed_between_rounds_is_asked_again() {
    let logs = Logs::new("changed");
    let client = TestClient::scripted(logs.server(), Era::Rounds, vec![]).await;
    let args = demo_purge(90);
    let first = client
        .round(PURGE, args.clone(), None, vec![])
        .await
        .unwrap();
    let (key, _, state) = first_asked(&first);
    // The list changes after the approval was shown: the approval is not for it.
    old_log(&logs.0.join("demo-repo"), "late-300d.log", 300);
    let again = client
        .round(PURGE, args.clone(), Some(&state), vec![(&key, approve(90))])
        .await
        .unwrap();
    let (key, message, state) = first_asked(&again);
    assert!(message.contains("4 objects"), "{message}");
    assert_eq!(logs.count("demo-repo"), SAMPLE_AGES.len() + 1);
    // Approved as now shown: exactly those four go.
    let done = client
        .round(PURGE, args, Some(&state), vec![(&key, approve(90))])
        .await
        .unwrap();
    assert!(complete_text(&done).contains("4 objects"));
    assert_eq!(logs.count("demo-repo"), SAMPLE_AGES.len() - 3);
}

/// An answer logged in an earlier round is replayed only for the same question: when
/// the first question changed by the time its follow-up is answered (here, the count
/// of files it names), it is asked anew instead of counting as consent.
#[tokio::test]
async fn a_logged_answer_counts_only_for_the_question_it_answered() {
    use elicit_core::{Elicit, Elicitation};
    use elicit_rmcp::{Asked, Session};
    use std::sync::atomic::{AtomicUsize, Ordering};

    static FILES: AtomicUsize = AtomicUsize::new(3);

    #[derive(Elicit, serde::Deserialize)]
    struct Approve {
        confirm: bool,
    }

    async fn two_questions(s: &mut Session) -> Asked<CallToolResult> {
        let files = FILES.load(Ordering::SeqCst);
        let first = s.ask::<Approve>(&format!("Delete {files} files?")).await?;
        let second = s.ask::<Approve>("Really?").await?;
        let yes =
            |a: &Elicitation<Approve>| matches!(a, Elicitation::Accept(Approve { confirm: true }));
        Ok(CallToolResult::success(vec![
            rmcp::model::ContentBlock::text(format!("{files} {} {}", yes(&first), yes(&second))),
        ]))
    }

    let client = TestClient::scripted(
        OneTool(elicitor(), |s| Box::pin(two_questions(s))),
        Era::Rounds,
        vec![],
    )
    .await;
    // One round: the state and the answer to the question the last round asked.
    let answer = |state: String, key: String| {
        let client = &client;
        async move {
            let yes = accept(json!({"confirm": true}));
            client
                .round("two", json!({}), Some(&state), vec![(&key, yes)])
                .await
                .unwrap()
        }
    };
    let message = |response: &CallToolResponse| {
        let (key, text, state) = first_asked(response);
        (text, key, state)
    };
    let first = client.round("two", json!({}), None, vec![]).await.unwrap();
    let (text, key, state) = message(&first);
    assert_eq!(text, "Delete 3 files?");
    let (text, key, state) = message(&answer(state, key).await);
    assert_eq!(text, "Really?");
    // The first question now names 300 files: the "yes" given for 3 does not carry over.
    FILES.store(300, Ordering::SeqCst);
    let (text, key, state) = message(&answer(state, key).await);
    assert_eq!(text, "Delete 300 files?");
    // Answered as now shown, the call goes on to its follow-up and completes.
    let (text, key, state) = message(&answer(state, key).await);
    assert_eq!(text, "Really?");
    let done = answer(state, key).await;
    assert_eq!(complete_text(&done), "300 true true");
}

#[tokio::test]
async fn purge_refuses_path_tricks() {
    let logs = Logs::new("tricks");
    for repo in ["..", "../etc", "demo-repo/../other-repo", ""] {
        let client = TestClient::scripted(logs.server(), Era::V1125, vec![]).await;
        let args = json!({"repo": repo, "days": 1, "dry_run": false});
        let result = client.call_with(call(PURGE, args)).await.unwrap();
        assert_eq!(result.is_error, Some(true), "{repo}");
    }
    assert_eq!(logs.count("other-repo"), SAMPLE_AGES.len());
}

#[cfg(unix)]
#[tokio::test]
async fn a_repository_symlinked_out_of_the_root_is_refused() {
    let logs = Logs::new("symlink-root");
    let outside = Logs::new("symlink-outside");
    std::os::unix::fs::symlink(outside.0.join("demo-repo"), logs.0.join("escape")).unwrap();
    // A symlinked log inside a real repository is not deleted either.
    std::os::unix::fs::symlink(
        outside.0.join("other-repo/app-400d.log"),
        logs.0.join("demo-repo/linked-400d.log"),
    )
    .unwrap();
    let result = TestClient::scripted(logs.server(), Era::V1125, vec![approve(1)])
        .await
        .call(
            PURGE,
            json!({"repo": "escape", "days": 1, "dry_run": false}),
        )
        .await;
    assert_eq!(result.unwrap(), "no repository \"escape\"");
    assert_eq!(outside.count("demo-repo"), SAMPLE_AGES.len());
    let result = TestClient::scripted(logs.server(), Era::V1125, vec![approve(300)])
        .await
        .call(PURGE, demo_purge(300))
        .await;
    assert!(result.unwrap().contains(", 1 objects,"));
    assert_eq!(outside.count("other-repo"), SAMPLE_AGES.len());
}

/// Push: the repository swapped for a symlink out of the root while the approval is
/// open. The deletion goes through the directory approved, which is no longer there:
/// nothing outside the root is touched.
#[cfg(unix)]
#[tokio::test]
async fn a_repository_swapped_while_the_form_is_open_deletes_nothing_elsewhere() {
    for era in [Era::V0618, Era::V1125] {
        let logs = Logs::new(&format!("swap-push-{era:?}"));
        let outside = Logs::new(&format!("swap-outside-{era:?}"));
        let (root, target) = (logs.0.clone(), outside.0.join("demo-repo"));
        let client = Scripted::new(era, vec![approve(90)]).before_answer(move || {
            let repo = root.join("demo-repo");
            if repo.is_dir() && !repo.is_symlink() {
                std::fs::rename(&repo, root.join("demo-repo.was")).unwrap();
                std::os::unix::fs::symlink(&target, &repo).unwrap();
            }
        });
        let client = TestClient::start(logs.server(), client).await;
        let result = client.call(PURGE, demo_purge(90)).await.unwrap();
        assert_eq!(
            result, "[BLOCKED] demo-repo is no longer the directory approved; nothing deleted",
            "{era:?}"
        );
        assert_eq!(outside.count("demo-repo"), SAMPLE_AGES.len(), "{era:?}");
        assert_eq!(logs.count("demo-repo.was"), SAMPLE_AGES.len(), "{era:?}");
    }
}

/// Rounds: an approval shown for demo-repo, then another directory put in its place
/// (a link to other-repo inside the root, or other-repo itself renamed): the answer is
/// not for that directory, and other-repo keeps every file.
#[cfg(unix)]
#[tokio::test]
async fn an_approval_is_for_the_directory_it_showed() {
    for swap in ["symlink", "rename"] {
        let logs = Logs::new(&format!("swap-rounds-{swap}"));
        let client = TestClient::scripted(logs.server(), Era::Rounds, vec![]).await;
        let args = demo_purge(90);
        let first = client
            .round(PURGE, args.clone(), None, vec![])
            .await
            .unwrap();
        let (key, _, state) = first_asked(&first);
        std::fs::rename(logs.0.join("demo-repo"), logs.0.join("demo-repo.was")).unwrap();
        if swap == "symlink" {
            std::os::unix::fs::symlink(logs.0.join("other-repo"), logs.0.join("demo-repo"))
                .unwrap();
        } else {
            std::fs::rename(logs.0.join("other-repo"), logs.0.join("demo-repo")).unwrap();
        }
        let again = client
            .round(PURGE, args, Some(&state), vec![(&key, approve(90))])
            .await
            .unwrap();
        if swap == "symlink" {
            assert_eq!(
                complete_text(&again),
                "no repository \"demo-repo\"",
                "{swap}"
            );
        } else {
            // Another directory under the same name is another question.
            let (_, message, _) = first_asked(&again);
            assert!(message.contains("(directory demo-repo, id "), "{message}");
        }
        let other = if swap == "symlink" {
            "other-repo"
        } else {
            "demo-repo"
        };
        assert_eq!(logs.count(other), SAMPLE_AGES.len(), "{swap}");
        assert_eq!(logs.count("demo-repo.was"), SAMPLE_AGES.len(), "{swap}");
    }
}
