//! The messages a game sends its debugger, typed, and how each is read from its raw arguments
//! in Godot 3 and Godot 4.

use super::Protocol;
use crate::Variant;

/// A message as it travelled: its name and its arguments, not yet interpreted.
///
/// In Godot 3 `args` are the loose frames after the count; in Godot 4 they are the elements of
/// the `data` Array and `thread` is the message's thread id.
#[derive(Clone, Debug, PartialEq)]
pub struct RawMessage {
    /// The message name (`output`, `scene:scene_tree`, `message:my_capture`…).
    pub name: String,
    /// Godot 4.2+: the id of the thread that sent it (1 is the main thread).
    pub thread: Option<i64>,
    /// The arguments in order.
    pub args: Vec<Variant>,
}

/// One message from the game.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Message {
    /// Godot 4: the game's process id, always the first message.
    SetPid(i64),
    /// Printed output (`print`, `printerr`, `print_rich`), batched per frame.
    Output(Vec<OutputLine>),
    /// An error or warning (`push_error`, `push_warning`, engine errors) with the script stack.
    Error(ErrorReport),
    /// The game stopped: a breakpoint, a `break` command, a step, or a script error.
    DebugEnter(DebugEnter),
    /// The game left the break.
    DebugExit,
    /// The call stack while broken, innermost frame first.
    StackDump(Vec<StackFrame>),
    /// Godot 3: every variable of the requested stack frame.
    StackFrameVars(Vec<StackVariable>),
    /// Godot 4: how many [`Message::StackFrameVar`] messages follow.
    StackFrameVarCount(i64),
    /// Godot 4: one variable of the requested stack frame.
    StackFrameVar(StackVariable),
    /// The scene tree: the root nodes (normally one, the root viewport or window).
    SceneTree(Vec<SceneNode>),
    /// The properties of an inspected object.
    InspectObject(InspectedObject),
    /// The performance monitors (`Performance.get_monitor` values), about once a second.
    Performance(Vec<f64>),
    /// A profiler frame, signature or total (`profile_*`, `servers:*`, `visual:*`,
    /// `network_*`, `multiplayer:*`), kept as sent.
    Profiler(RawMessage),
    /// The game asks the editor to stop it (`kill_me` in Godot 3, `request_quit` in Godot 4).
    QuitRequest,
    /// A message to a capture: Godot 3 `message:NAME` (`ScriptDebugger.send_message`) other than
    /// the scene messages above, Godot 4 `prefix:name` (`EngineDebugger.send_message`) that no
    /// variant above covers.
    Custom(RawMessage),
    /// A message this module does not know, kept whole.
    Unknown(RawMessage),
}

/// The kind of an output line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    /// `print` (type 0; every Godot 3.2.2 line).
    Log,
    /// `printerr` (type 1).
    Error,
    /// `print_rich` (type 2, Godot 4), BBCode as written.
    Rich,
    /// A type this module does not know.
    Other(i64),
}

/// One line (or, in Godot 4, several joined lines) of output.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputLine {
    /// The text.
    pub text: String,
    /// Its kind.
    pub kind: OutputKind,
}

/// A function in a call stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackFrame {
    /// Script path (`res://game.gd`).
    pub file: String,
    /// Function name.
    pub function: String,
    /// Line in the script.
    pub line: i64,
}

/// An error or warning the game reports.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorReport {
    /// Hours, minutes, seconds and milliseconds of engine uptime.
    pub time: [i64; 4],
    /// The C++ (or script) file that raised it.
    pub source_file: String,
    /// The function that raised it.
    pub source_function: String,
    /// The line that raised it.
    pub source_line: i64,
    /// The error text (`push_error`'s message, or the failed condition).
    pub error: String,
    /// A longer description (may be empty).
    pub description: String,
    /// A warning rather than an error.
    pub warning: bool,
    /// The script call stack, innermost first: where in the script it happened.
    pub stack: Vec<StackFrame>,
}

/// Why and how the game stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct DebugEnter {
    /// Whether `continue` can resume it (false after some script errors).
    pub can_continue: bool,
    /// `"Breakpoint"`, `"Breakpoint Statement"`, a script error, or `""` for `break`.
    pub reason: String,
    /// Godot 4: whether a stack dump follows.
    pub has_stack_dump: Option<bool>,
    /// Godot 4: the thread (a name such as `"Main Thread"` in 4.2–4.4, an id from 4.5).
    pub thread: Option<Variant>,
}

/// Where a stack-frame variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarScope {
    /// A local (arguments included).
    Local,
    /// A member of the script's instance (`self` first).
    Member,
    /// A global.
    Global,
    /// A scope code this module does not know.
    Other(i64),
}

/// A variable of a stack frame.
#[derive(Clone, Debug, PartialEq)]
pub struct StackVariable {
    /// Its name.
    pub name: String,
    /// Where it lives.
    pub scope: VarScope,
    /// Its value (objects arrive as ids; too big values as null).
    pub value: Variant,
}

/// A node of the remote scene tree.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneNode {
    /// The node's name.
    pub name: String,
    /// Its class.
    pub class: String,
    /// Its instance id, for [`Command::Inspect`](super::Command::Inspect).
    pub id: u64,
    /// Godot 4: the scene file it was instanced from (`""` if none).
    pub scene_file: Option<String>,
    /// Godot 4: visibility flags.
    pub view_flags: Option<i64>,
    /// Its children in order.
    pub children: Vec<SceneNode>,
}

impl SceneNode {
    /// This node and every descendant, depth first.
    pub fn walk(&self) -> Vec<&SceneNode> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(n.children.iter().rev());
        }
        out
    }
}

/// An object's properties as the inspector shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct InspectedObject {
    /// Its instance id.
    pub id: u64,
    /// Its class.
    pub class: String,
    /// Its properties in the engine's order (script members are named `Members/NAME`).
    pub properties: Vec<Property>,
}

impl InspectedObject {
    /// The property called `name`, or `Members/name` (how script members are listed).
    pub fn property(&self, name: &str) -> Option<&Property> {
        let member = format!("Members/{name}");
        self.properties
            .iter()
            .find(|p| p.name == name)
            .or_else(|| self.properties.iter().find(|p| p.name == member))
    }
}

/// One inspected property.
#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    /// Its name.
    pub name: String,
    /// The engine's Variant type id of the property.
    pub type_id: i64,
    /// `PROPERTY_HINT_*`.
    pub hint: i64,
    /// The hint string.
    pub hint_string: String,
    /// `PROPERTY_USAGE_*` flags.
    pub usage: i64,
    /// Its value (a Resource with a path arrives as that path).
    pub value: Variant,
}

/// Why a known message could not be read: its arguments have the wrong shape.
pub(crate) type Shape = String;

/// Reads arguments in order, saying which one is wrong.
struct Args<'a> {
    name: &'a str,
    args: &'a [Variant],
    at: usize,
}

impl<'a> Args<'a> {
    fn new(name: &'a str, args: &'a [Variant]) -> Args<'a> {
        Args { name, args, at: 0 }
    }

    fn any(&mut self) -> Result<&'a Variant, Shape> {
        let v = self.args.get(self.at).ok_or_else(|| {
            format!(
                "`{}` has {} arguments, expected more",
                self.name,
                self.args.len()
            )
        })?;
        self.at += 1;
        Ok(v)
    }

    fn wrong(&self, what: &str, got: &Variant) -> Shape {
        format!(
            "argument {} of `{}`: expected {what}, got {:?}",
            self.at - 1,
            self.name,
            got.kind()
        )
    }

    fn int(&mut self) -> Result<i64, Shape> {
        let v = self.any()?;
        v.as_int().ok_or_else(|| self.wrong("an int", v))
    }

    /// A count: an int that is not negative and not more than what is left.
    fn count(&mut self, per_item: usize) -> Result<usize, Shape> {
        let n = self.int()?;
        let left = self.args.len() - self.at;
        usize::try_from(n)
            .ok()
            .filter(|&n| n.checked_mul(per_item).is_some_and(|m| m <= left))
            .ok_or_else(|| {
                format!(
                    "argument {} of `{}`: count {n} does not fit the {left} arguments left",
                    self.at - 1,
                    self.name
                )
            })
    }

    fn bool(&mut self) -> Result<bool, Shape> {
        let v = self.any()?;
        v.as_bool().ok_or_else(|| self.wrong("a bool", v))
    }

    fn string(&mut self) -> Result<String, Shape> {
        let v = self.any()?;
        v.as_str()
            .map(str::to_owned)
            .ok_or_else(|| self.wrong("a String", v))
    }

    fn array(&mut self) -> Result<&'a [Variant], Shape> {
        let v = self.any()?;
        v.as_array()
            .map(|a| a.items.as_slice())
            .ok_or_else(|| self.wrong("an Array", v))
    }

    /// An object id: an int (Godot 4 ids above 2^63 arrive negative) or an object-as-id.
    fn id(&mut self) -> Result<u64, Shape> {
        let v = self.any()?;
        match v {
            Variant::Int(i) => Ok(*i as u64),
            Variant::Object(crate::Object::Id(id)) => Ok(*id),
            _ => Err(self.wrong("an object id", v)),
        }
    }

    fn rest(&self) -> &'a [Variant] {
        &self.args[self.at.min(self.args.len())..]
    }

    fn done(&self) -> Result<(), Shape> {
        if self.at == self.args.len() {
            Ok(())
        } else {
            Err(format!(
                "`{}` has {} arguments, expected {}",
                self.name,
                self.args.len(),
                self.at
            ))
        }
    }
}

impl Message {
    /// Interprets a raw message of `protocol`. Unknown names give [`Message::Unknown`] or
    /// [`Message::Custom`]; a known name with arguments of the wrong shape is an error that
    /// says which argument.
    pub fn parse(raw: RawMessage, protocol: Protocol) -> Result<Message, (Shape, RawMessage)> {
        match parse_known(&raw, protocol) {
            Ok(Some(m)) => Ok(m),
            Ok(None) => Ok(classify_other(raw, protocol)),
            Err(e) => Err((e, raw)),
        }
    }
}

/// The message names that carry profiler data, kept raw.
fn is_profiler(name: &str, protocol: Protocol) -> bool {
    match protocol {
        Protocol::Godot3 => matches!(
            name,
            "profile_sig"
                | "profile_frame"
                | "profile_total"
                | "network_profile"
                | "network_bandwidth"
        ),
        Protocol::Godot4 => {
            name.starts_with("servers:profile")
                || name == "servers:function_signature"
                || name.starts_with("visual:")
                || name.starts_with("multiplayer:")
                || name == "performance:profile_names"
        }
    }
}

fn classify_other(raw: RawMessage, protocol: Protocol) -> Message {
    if is_profiler(&raw.name, protocol) {
        return Message::Profiler(raw);
    }
    let custom = match protocol {
        // ScriptDebuggerRemote::_get_output prefixes send_message names with `message:`.
        Protocol::Godot3 => raw.name.starts_with("message:"),
        // RemoteDebugger routes `prefix:rest` to the capture named prefix.
        Protocol::Godot4 => raw.name.contains(':'),
    };
    if custom {
        Message::Custom(raw)
    } else {
        Message::Unknown(raw)
    }
}

fn parse_known(raw: &RawMessage, protocol: Protocol) -> Result<Option<Message>, Shape> {
    let mut a = Args::new(&raw.name, &raw.args);
    let g3 = protocol == Protocol::Godot3;
    let m = match raw.name.as_str() {
        "set_pid" if !g3 => Message::SetPid(a.int()?),
        "output" => Message::Output(output(&mut a, protocol)?),
        "error" => Message::Error(if g3 {
            error_g3(&mut a)?
        } else {
            error_g4(&mut a)?
        }),
        "debug_enter" => Message::DebugEnter(DebugEnter {
            can_continue: a.bool()?,
            reason: a.string()?,
            has_stack_dump: if g3 { None } else { Some(a.bool()?) },
            thread: if g3 { None } else { Some(a.any()?.clone()) },
        }),
        "debug_exit" => Message::DebugExit,
        "stack_dump" if g3 => Message::StackDump(stack_dump_g3(&mut a)?),
        "stack_dump" => {
            // debugger_marshalls.cpp 38-64: a count of 3 per frame, then file, line, function.
            let n = a.count(1)?;
            if n % 3 != 0 {
                return Err(format!("`stack_dump` count {n} is not a multiple of 3"));
            }
            let mut frames = Vec::with_capacity(n / 3);
            for _ in 0..n / 3 {
                let file = a.string()?;
                let line = a.int()?;
                let function = a.string()?;
                frames.push(StackFrame {
                    file,
                    function,
                    line,
                });
            }
            Message::StackDump(frames)
        }
        "stack_frame_vars" if g3 => Message::StackFrameVars(stack_frame_vars_g3(&mut a)?),
        "stack_frame_vars" => Message::StackFrameVarCount(a.int()?),
        "stack_frame_var" if !g3 => {
            // debugger_marshalls.cpp 66-99: name, scope, value type, value.
            let name = a.string()?;
            let scope = scope(a.int()?);
            let _value_type = a.int()?;
            Message::StackFrameVar(StackVariable {
                name,
                scope,
                value: a.any()?.clone(),
            })
        }
        "message:scene_tree" if g3 => Message::SceneTree(scene_tree(&mut a, 4)?),
        "scene:scene_tree" if !g3 => Message::SceneTree(scene_tree(&mut a, 6)?),
        "message:inspect_object" if g3 => Message::InspectObject(inspect(&mut a)?),
        "scene:inspect_object" if !g3 => Message::InspectObject(inspect(&mut a)?),
        "performance" if g3 => Message::Performance(numbers(&mut a.array()?.iter(), &raw.name)?),
        "performance:profile_frame" if !g3 => {
            Message::Performance(numbers(&mut a.rest().iter(), &raw.name)?)
        }
        "kill_me" if g3 => Message::QuitRequest,
        "request_quit" if !g3 => Message::QuitRequest,
        _ => return Ok(None),
    };
    // Godot 4's performance frame is read whole above; everything else must fit exactly,
    // except that a newer engine may append fields to `debug_enter` or `error`.
    if !matches!(m, Message::Performance(_) | Message::DebugEnter(_)) || g3 {
        a.done()?;
    }
    Ok(Some(m))
}

fn numbers<'a>(it: &mut impl Iterator<Item = &'a Variant>, name: &str) -> Result<Vec<f64>, Shape> {
    it.enumerate()
        .map(|(i, v)| {
            v.as_float()
                .or_else(|| v.as_int().map(|i| i as f64))
                .ok_or_else(|| format!("`{name}` value {i} is not a number: {:?}", v.kind()))
        })
        .collect()
}

fn output_kind(code: i64) -> OutputKind {
    match code {
        0 => OutputKind::Log,
        1 => OutputKind::Error,
        2 => OutputKind::Rich,
        n => OutputKind::Other(n),
    }
}

fn output(a: &mut Args<'_>, protocol: Protocol) -> Result<Vec<OutputLine>, Shape> {
    match protocol {
        Protocol::Godot3 => {
            let mut lines = Vec::new();
            while !a.rest().is_empty() {
                let v = a.any()?;
                // 3.2.2 sends each line as a String; 3.2.3 as `[text, type]` (reference §2.4).
                let line = match v {
                    Variant::String(s) => OutputLine {
                        text: s.to_string(),
                        kind: OutputKind::Log,
                    },
                    Variant::Array(arr) => {
                        let mut inner = Args::new("output", &arr.items);
                        let line = OutputLine {
                            text: inner.string()?,
                            kind: output_kind(inner.int()?),
                        };
                        inner.done()?;
                        line
                    }
                    other => return Err(a.wrong("a String or [String, int]", other)),
                };
                lines.push(line);
            }
            Ok(lines)
        }
        Protocol::Godot4 => {
            // remote_debugger.cpp 205-242: a PackedStringArray and a PackedInt32Array.
            let texts = a.any()?;
            let kinds = a.any()?;
            match (texts, kinds) {
                (Variant::PackedStringArray(t), Variant::PackedInt32Array(k)) if t.len() == k.len() => {
                    Ok(t.iter()
                        .zip(k)
                        .map(|(text, &kind)| OutputLine {
                            text: text.to_string(),
                            kind: output_kind(kind.into()),
                        })
                        .collect())
                }
                _ => Err(format!(
                    "`output` wants a PackedStringArray and a PackedInt32Array of one length, got {:?} and {:?}",
                    texts.kind(),
                    kinds.kind()
                )),
            }
        }
    }
}

/// The call-stack triples (file, function, line) that end an error report in both generations.
fn error_stack(a: &mut Args<'_>) -> Result<Vec<StackFrame>, Shape> {
    let n = a.count(1)?;
    if n % 3 != 0 {
        return Err(format!("`error` stack count {n} is not a multiple of 3"));
    }
    (0..n / 3)
        .map(|_| {
            Ok(StackFrame {
                file: a.string()?,
                function: a.string()?,
                line: a.int()?,
            })
        })
        .collect()
}

/// The ten fields before the stack: time, source, error text, description and the warning
/// flag. Godot 3 puts the source function before the file, Godot 4 after it.
fn error_head(h: &mut Args<'_>, function_first: bool) -> Result<ErrorReport, Shape> {
    let time = [h.int()?, h.int()?, h.int()?, h.int()?];
    let (first, second) = (h.string()?, h.string()?);
    let (source_function, source_file) = if function_first {
        (first, second)
    } else {
        (second, first)
    };
    Ok(ErrorReport {
        time,
        source_file,
        source_function,
        source_line: h.int()?,
        error: h.string()?,
        description: h.string()?,
        warning: h.bool()?,
        stack: Vec::new(),
    })
}

/// Godot 3: an Array of 10 (function before file), then the counted stack as loose frames
/// (script_debugger_remote.cpp 1063-1126).
fn error_g3(a: &mut Args<'_>) -> Result<ErrorReport, Shape> {
    let mut h = Args::new("error", a.array()?);
    let mut report = error_head(&mut h, true)?;
    h.done()?;
    report.stack = error_stack(a)?;
    Ok(report)
}

/// Godot 4: one flat list, file before function (debugger_marshalls.cpp 101-149).
fn error_g4(a: &mut Args<'_>) -> Result<ErrorReport, Shape> {
    let mut report = error_head(a, false)?;
    report.stack = error_stack(a)?;
    Ok(report)
}

/// Godot 3: one Dictionary per frame (script_debugger_remote.cpp 178-194).
fn stack_dump_g3(a: &mut Args<'_>) -> Result<Vec<StackFrame>, Shape> {
    let mut frames = Vec::new();
    while !a.rest().is_empty() {
        let v = a.any()?;
        let d = v
            .as_dictionary()
            .ok_or_else(|| a.wrong("a Dictionary", v))?;
        let field = |k: &str| {
            d.get_str(k)
                .ok_or_else(|| format!("`stack_dump` frame has no `{k}`"))
        };
        let text = |k: &str| -> Result<String, Shape> {
            field(k)?
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("`stack_dump` frame `{k}` is not a String"))
        };
        frames.push(StackFrame {
            file: text("file")?,
            function: text("function")?,
            line: field("line")?
                .as_int()
                .ok_or("`stack_dump` frame `line` is not an int")?,
        });
    }
    Ok(frames)
}

fn scope(code: i64) -> VarScope {
    match code {
        0 => VarScope::Local,
        1 => VarScope::Member,
        2 => VarScope::Global,
        n => VarScope::Other(n),
    }
}

/// Godot 3: three counted sections of (name, value): locals, members, globals
/// (script_debugger_remote.cpp 196-265).
fn stack_frame_vars_g3(a: &mut Args<'_>) -> Result<Vec<StackVariable>, Shape> {
    let mut vars = Vec::new();
    for scope in [VarScope::Local, VarScope::Member, VarScope::Global] {
        let n = a.count(2)?;
        for _ in 0..n {
            let name = a.string()?;
            vars.push(StackVariable {
                name,
                scope,
                value: a.any()?.clone(),
            });
        }
    }
    Ok(vars)
}

/// The flat depth-first list of nodes, `fields` per node (4 in Godot 3: child count, name,
/// class, id; Godot 4 adds scene file and view flags, scene_debugger.cpp 505-566), as a tree.
/// Built with an explicit stack so a hostile depth cannot overflow ours.
fn scene_tree(a: &mut Args<'_>, fields: usize) -> Result<Vec<SceneNode>, Shape> {
    // Each open node and how many children it still expects.
    let mut open: Vec<(SceneNode, usize)> = Vec::new();
    let mut roots = Vec::new();
    while !a.rest().is_empty() || !open.is_empty() {
        if a.rest().is_empty() {
            return Err(format!(
                "`{}` ends with {} node(s) still expecting children",
                a.name,
                open.len()
            ));
        }
        let children = a.int()?;
        let children = usize::try_from(children)
            .ok()
            .filter(|&c| c <= a.rest().len() / fields)
            .ok_or_else(|| format!("`{}`: a node claims {children} children", a.name))?;
        let mut node = SceneNode {
            name: a.string()?,
            class: a.string()?,
            id: a.id()?,
            scene_file: None,
            view_flags: None,
            children: Vec::new(),
        };
        if fields == 6 {
            node.scene_file = Some(a.string()?);
            node.view_flags = Some(a.int()?);
        }
        open.push((node, children));
        // Close every node whose children are all there.
        while let Some((_, 0)) = open.last() {
            let (done, _) = open.pop().expect("just looked");
            match open.last_mut() {
                Some((parent, left)) => {
                    parent.children.push(done);
                    *left -= 1;
                }
                None => roots.push(done),
            }
        }
    }
    Ok(roots)
}

/// id, class, then an Array of `[name, type, hint, hint_string, usage, value]`
/// (3.2 script_debugger_remote.cpp 579-716; 4.3 scene_debugger.cpp 257-266).
fn inspect(a: &mut Args<'_>) -> Result<InspectedObject, Shape> {
    let id = a.id()?;
    let class = a.string()?;
    let props = a.array()?;
    let properties = props
        .iter()
        .map(|p| {
            let items = p
                .as_array()
                .ok_or_else(|| format!("`inspect_object` property is {:?}", p.kind()))?;
            let mut f = Args::new("inspect_object property", &items.items);
            let prop = Property {
                name: f.string()?,
                type_id: f.int()?,
                hint: f.int()?,
                hint_string: f.string()?,
                usage: f.int()?,
                value: f.any()?.clone(),
            };
            f.done()?;
            Ok(prop)
        })
        .collect::<Result<_, Shape>>()?;
    Ok(InspectedObject {
        id,
        class,
        properties,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Array;

    fn raw(name: &str, thread: Option<i64>, args: Vec<Variant>) -> RawMessage {
        RawMessage {
            name: name.into(),
            thread,
            args,
        }
    }

    #[test]
    fn godot3_2_2_output_is_bare_strings() {
        // 3.2.2 sends each line as a String, 3.2.3 as [text, type] (reference §2.4).
        let m = Message::parse(raw("output", None, vec!["hi".into()]), Protocol::Godot3);
        assert_eq!(
            m,
            Ok(Message::Output(vec![OutputLine {
                text: "hi".into(),
                kind: OutputKind::Log
            }]))
        );
    }

    #[test]
    fn godot4_5_debug_enter_names_its_thread_by_id() {
        // PR #98379: the fourth field became the thread id (an int) instead of its name.
        let args = vec![true.into(), "Breakpoint".into(), true.into(), 1.into()];
        let Ok(Message::DebugEnter(d)) =
            Message::parse(raw("debug_enter", Some(1), args), Protocol::Godot4)
        else {
            panic!("not read")
        };
        assert_eq!(d.thread, Some(Variant::Int(1)));
    }

    #[test]
    fn wrong_shapes_name_the_argument_and_keep_the_message() {
        let args = vec![Variant::Array(Array::default())];
        let (why, kept) =
            Message::parse(raw("stack_dump", Some(1), args.clone()), Protocol::Godot4).unwrap_err();
        assert_eq!(
            why,
            "argument 0 of `stack_dump`: expected an int, got Array"
        );
        assert_eq!(kept.args, args);
        // A scene tree whose node claims more children than follow.
        let args: Vec<Variant> = vec![5.into(), "root".into(), "Node".into(), 1.into()];
        let (why, _) =
            Message::parse(raw("message:scene_tree", None, args), Protocol::Godot3).unwrap_err();
        assert!(why.contains("claims 5 children"), "{why}");
    }
}
