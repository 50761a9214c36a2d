//! The game-server examples as modules of a test (`#[path = "live/examples.rs"] mod examples;`),
//! so tests call their `serve` functions directly.
// Each example carries its own copy of examples/common (a user copies one example and that
// folder); here the three copies are three modules.
#![allow(clippy::duplicate_mod, dead_code)]

#[path = "../../examples/tcp_server.rs"]
pub mod tcp_server;
#[path = "../../examples/udp_server.rs"]
pub mod udp_server;
#[path = "../../examples/websocket_server.rs"]
pub mod websocket_server;
