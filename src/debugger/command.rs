//! The commands an editor sends a game, and the Array each becomes in Godot 3 and Godot 4.

use super::Protocol;
use crate::{Array, Variant};

/// A command to the game.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Command {
    /// Ask for the scene tree (answered by [`Message::SceneTree`](super::Message::SceneTree)).
    RequestSceneTree,
    /// Ask for an object's properties (answered by
    /// [`Message::InspectObject`](super::Message::InspectObject); an unknown id gets no answer).
    Inspect(u64),
    /// Set a property of an object (no answer). A script member can be named `value` or
    /// `Members/value`.
    SetProperty {
        /// The object's instance id.
        id: u64,
        /// The property name.
        property: String,
        /// The new value.
        value: Variant,
    },
    /// Stop the game where it is (answered by `debug_enter`).
    Break,
    /// Leave the break (answered by `debug_exit`).
    Continue,
    /// Step into the next line.
    Step,
    /// Step over the next line.
    Next,
    /// Ask for the call stack while broken.
    GetStackDump,
    /// Ask for the variables of a stack frame (0 is the innermost) while broken.
    GetStackFrameVars(i64),
    /// Set or clear a breakpoint.
    Breakpoint {
        /// Script path (`res://game.gd`).
        path: String,
        /// Line.
        line: i64,
        /// Set (true) or clear (false).
        set: bool,
    },
    /// Any other command, sent as written: `name` and its arguments.
    Raw {
        /// The command name, with its capture prefix in Godot 4 (`scene:…`).
        name: String,
        /// Its arguments.
        args: Vec<Variant>,
    },
}

/// The thread a Godot 4 command is addressed to: the main thread (`Thread::MAIN_ID`, 1); the game
/// drops messages for an unregistered thread id (remote_debugger.cpp 364-368).
const MAIN_THREAD: i64 = 1;

impl Command {
    /// The name and arguments of the command in `protocol`.
    pub fn name_and_args(&self, protocol: Protocol) -> (String, Vec<Variant>) {
        let g4 = protocol == Protocol::Godot4;
        // Godot 4 moved the scene commands into the `scene` capture (scene_debugger.cpp 48).
        let scene = |n: &str| {
            if g4 {
                format!("scene:{n}")
            } else {
                n.to_string()
            }
        };
        // Ids are u64 bit patterns; Godot 4 ids above 2^63 travel as negative int64.
        let id = |id: u64| Variant::Int(id as i64);
        match self {
            Command::RequestSceneTree => (scene("request_scene_tree"), vec![]),
            Command::Inspect(i) => (scene("inspect_object"), vec![id(*i)]),
            Command::SetProperty {
                id: i,
                property,
                value,
            } => (
                scene("set_object_property"),
                vec![id(*i), property.as_str().into(), value.clone()],
            ),
            Command::Break => ("break".into(), vec![]),
            Command::Continue => ("continue".into(), vec![]),
            Command::Step => ("step".into(), vec![]),
            Command::Next => ("next".into(), vec![]),
            Command::GetStackDump => ("get_stack_dump".into(), vec![]),
            Command::GetStackFrameVars(f) => ("get_stack_frame_vars".into(), vec![(*f).into()]),
            Command::Breakpoint { path, line, set } => (
                "breakpoint".into(),
                vec![path.as_str().into(), (*line).into(), (*set).into()],
            ),
            Command::Raw { name, args } => (name.clone(), args.clone()),
        }
    }

    /// The one Variant that carries the command: Godot 3 `[name, args…]`
    /// (script_editor_debugger.cpp, every `ppeer->put_var(msg)`), Godot 4
    /// `[name, thread_id, [args…]]` (4.3 editor `_put_msg`).
    pub fn to_variant(&self, protocol: Protocol) -> Variant {
        let (name, args) = self.name_and_args(protocol);
        let items = match protocol {
            Protocol::Godot3 => std::iter::once(Variant::from(name)).chain(args).collect(),
            Protocol::Godot4 => vec![
                name.into(),
                MAIN_THREAD.into(),
                Variant::Array(Array::new(args)),
            ],
        };
        Variant::Array(Array::new(items))
    }
}
