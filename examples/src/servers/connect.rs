//! `connect-service`: a tool that needs an API key, asked the only way MCP allows a
//! secret to be asked: on a web page (URL mode), through a field marked
//! `#[elicit(secret)]`. The key never reaches the client, the model, a sealed state or a
//! log; the tool keeps only whether it worked.

use elicit_core::{Elicit, Elicitation, ExposeSecret, SecretString};
use elicit_rmcp::{Asked, Elicitor, Session, Tools};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;

use super::text;

/// Where the service runs.
#[derive(Elicit, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    /// Europe
    #[elicit(title = "Europe (Frankfurt)")]
    Eu,
    /// The United States
    #[elicit(title = "United States (Virginia)")]
    Us,
}

/// The credentials of the weather service.
#[derive(Elicit, Deserialize, Debug)]
pub struct ApiKey {
    /// Your API key for the weather service (starts with `wk_`).
    #[elicit(secret, title = "API key", min_length = 12)]
    pub key: SecretString,
    /// The region your account lives in.
    #[elicit(title = "Region", default = "Eu")]
    pub region: Region,
}

/// The arguments of `connect_weather`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ConnectArgs {
    /// The city whose forecast to fetch once connected.
    pub city: String,
}

/// The `connect-service` server.
#[derive(Clone, Debug)]
pub struct ConnectServer {
    tools: Tools<ConnectServer>,
}

#[tool_router]
impl ConnectServer {
    /// A server asking through `elicitor`, which must have pages (`Elicitor::with_pages`
    /// or `with_local_pages`).
    pub fn new(elicitor: Elicitor) -> ConnectServer {
        ConnectServer {
            tools: Tools::new(elicitor, Self::tool_router()),
        }
    }

    /// `connect_weather`: asks the API key on a page, then says what it would fetch.
    #[tool(
        description = "Connect to the weather service (asks the user for an API key on a secure page) and fetch a city's forecast."
    )]
    async fn connect_weather(
        &self,
        Parameters(ConnectArgs { city }): Parameters<ConnectArgs>,
        mut s: Session,
    ) -> Asked<CallToolResult> {
        let message = format!("The weather service needs your API key to fetch {city}'s forecast.");
        Ok(match s.ask_on_page::<ApiKey>(message).await? {
            Elicitation::Accept(credentials) => {
                let key = credentials.key.expose_secret();
                if !key.starts_with("wk_") {
                    return Ok(text(
                        "That is not a weather-service key (it starts with wk_). Not connected.",
                    ));
                }
                // A real server would call the service here; the key itself is never
                // written into the result.
                text(format!(
                    "Connected to the {:?} region with a key of {} characters; {city}: sunny, 21 °C.",
                    credentials.region,
                    key.chars().count()
                ))
            }
            Elicitation::Decline => text("No key given; not connected."),
            Elicitation::Cancel => text("Cancelled; not connected."),
        })
    }
}

#[tool_handler(router = self.tools)]
impl ServerHandler for ConnectServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("connect-service", env!("CARGO_PKG_VERSION")),
        )
    }
}
