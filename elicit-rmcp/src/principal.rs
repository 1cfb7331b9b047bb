//! [`Principal`]: who made a request, as the server's authentication established it.

use ::rmcp::service::{RequestContext, RoleServer};

/// Who made a request, as the server's authentication established it. Sealed state
/// is bound to it: one principal's `requestState` is refused for any other.
///
/// [`Elicitor::tool`](crate::Elicitor::tool) and [`Elicitor::prompt`](crate::Elicitor::prompt)
/// read it from the request's extensions, where an authentication layer puts it: in the
/// HTTP request's extensions (what the bearer tokens of `http::HttpOptions::bearer_token`,
/// feature `http`, do; rmcp hands the HTTP request's parts to the handler), or in rmcp's
/// own request extensions. A request without one is unauthenticated, bound to the empty
/// name.
///
/// An OAuth resource-server layer of one's own, once it has checked a token, marks
/// the request with `request.extensions_mut().insert(Principal::new(subject))`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Principal(String);

impl Principal {
    /// The principal named `name` (a user or client id).
    pub fn new(name: impl Into<String>) -> Principal {
        Principal(name.into())
    }

    /// The principal's name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The request's [`Principal`]: in rmcp's extensions, else (served over HTTP) in the
/// HTTP request's; the empty name when there is none.
pub(crate) fn principal_of(ctx: &RequestContext<RoleServer>) -> &str {
    if let Some(principal) = ctx.extensions.get::<Principal>() {
        return principal.as_str();
    }
    #[cfg(feature = "http")]
    if let Some(principal) = ctx
        .extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Principal>())
    {
        return principal.as_str();
    }
    ""
}
