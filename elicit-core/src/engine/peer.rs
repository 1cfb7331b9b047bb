//! What the client on the other end declared: [`Peer`].

use serde_json::Value;

use crate::form::Revision;

/// What the client on the other end of a call declared: the protocol revision, its
/// capabilities and its name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Peer {
    /// The negotiated revision, when it is one elicitation knows.
    pub revision: Option<Revision>,
    /// The client's `clientInfo.name` (at `initialize`, or in each request's `_meta` on
    /// 2026-07-28), when the adapter knows it: the key of its profile in
    /// [`Settings::client_profiles`](super::Settings::client_profiles). [`Peer::new`] leaves it `None`; an adapter sets
    /// it (`client.name = Some(name)`), and [`Engine::open`](super::Engine::open) reads it from `_meta`.
    pub name: Option<String>,
    elicitation: bool,
    form: bool,
    url: bool,
    sampling: bool,
    roots: bool,
}

impl Peer {
    /// A client speaking `revision` (`None`: one without elicitation) that declared
    /// `capabilities`, the `capabilities` object of its `initialize` request (per
    /// request on 2026-07-28). An `elicitation` object of `{}` means form mode only.
    pub fn new(revision: Option<Revision>, capabilities: &Value) -> Peer {
        let elicitation = capabilities.get("elicitation").filter(|e| e.is_object());
        let has = |key: &str| elicitation.is_some_and(|e| e.get(key).is_some());
        Peer {
            revision,
            name: None,
            elicitation: elicitation.is_some(),
            form: has("form"),
            url: has("url"),
            sampling: capabilities.get("sampling").is_some(),
            roots: capabilities.get("roots").is_some(),
        }
    }

    /// The client of an `initialize` request whose `params` are given, on the `revision`
    /// the server answered with: its `capabilities` and its `clientInfo.name`.
    ///
    /// ```
    /// use elicit_core::Revision;
    /// use elicit_core::engine::Peer;
    ///
    /// let params = serde_json::json!({"protocolVersion": "2025-11-25",
    ///     "capabilities": {"elicitation": {"form": {}}},
    ///     "clientInfo": {"name": "claude-code", "version": "2.1.0"}});
    /// let peer = Peer::from_initialize(Some(Revision::V2025_11_25), &params);
    /// assert!(peer.supports("form") && !peer.supports("url"));
    /// assert_eq!(peer.name.as_deref(), Some("claude-code"));
    /// ```
    pub fn from_initialize(revision: Option<Revision>, params: &Value) -> Peer {
        let mut peer = Peer::new(revision, &params["capabilities"]);
        peer.name = params["clientInfo"]["name"].as_str().map(str::to_owned);
        peer
    }

    /// Whether the client can take a question of `mode`: `"form"`, `"url"` (2025-11-25
    /// and later), `"sampling"` or `"roots"`.
    pub fn supports(&self, mode: &str) -> bool {
        match mode {
            "sampling" => return self.sampling,
            "roots" => return self.roots,
            _ => {}
        }
        let Some(revision) = self.revision else {
            return false;
        };
        match mode {
            _ if !self.elicitation => false,
            "url" => revision >= Revision::V2025_11_25 && self.url,
            // `{}` means form only.
            "form" => self.form || !self.url || revision == Revision::V2025_06_18,
            _ => false,
        }
    }
}
