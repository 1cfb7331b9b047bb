//! Forms and flows shared by the example programs and the tests.

pub mod clock;
pub mod forms;
pub mod python_sdk;
pub mod redis_server;
pub mod script;
pub mod servers;
pub mod terminal;
pub mod ticket;
