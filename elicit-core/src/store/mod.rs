//! Stores (feature `seal`): what a server keeps beyond one call, shared by its replicas
//! when it runs as several. The redeemed states that make sealed state single use
//! ([`RedeemStore`]), and the records of durable tasks ([`TaskStore`]); [`MemoryStore`]
//! keeps both in one process, [`RedisStore`] (feature `redis`) in Redis for replicas.
//!
//! # Single use
//!
//! A sealed token (see [`seal`](crate::seal)) opens as often as it is presented within
//! its lifetime; the cipher cannot know it was seen before. So each state carries a
//! random id, and the server redeems that id in a [`RedeemStore`] before it acts on the
//! state: the first redemption wins, a second one (a replayed retry, on this replica or
//! another) is refused. An entry needs to live only as long as the state could still
//! open.
//!
//! - [`MemoryStore`]: one process (the default of `engine::Engine`, and so of
//!   `elicit_rmcp::Elicitor`).
//! - [`RedisStore`] (feature `redis`): replicas behind a load balancer share it, so a
//!   state redeemed on one is refused on every other.
//!
//! # Task records
//!
//! [`TaskStore`] keeps versioned records for the Tasks extension of the adapter
//! (`elicit_rmcp::Tasks::with_task_store`), its one user. It is declared here rather than
//! beside that user all the same: the stores that implement it, [`MemoryStore`] and
//! [`RedisStore`], are the core's, and keep task records beside the redeemed ids with
//! their internals (one Redis connection and its Lua scripts, one process's locks). In
//! the adapter, the trait would need those internals made public, or the stores split
//! in two.

mod memory;
mod redeem;
#[cfg(feature = "redis")]
mod redis;
mod tasks;

pub use memory::MemoryStore;
pub use redeem::{RedeemStore, Redemption};
#[cfg(feature = "redis")]
pub use redis::RedisStore;
pub use tasks::TaskStore;
