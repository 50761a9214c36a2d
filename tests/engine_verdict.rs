//! Engine mode (`DecodeOptions::engine_strict`) against the engines: full objects and typed containers with objects allowed, through live Godot 3.2.3, 4.3 and 4.4.1, and every engine-made fixture, which engine mode must read as default decoding does.

mod common;
#[path = "support/godot3.rs"]
mod godot3;
#[path = "support/godot4.rs"]
mod godot4;

use common::hex;
use gdvariant::*;
use std::path::{Path, PathBuf};

fn is_ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

/// A string field: length, bytes, padding.
fn string(s: &str) -> Vec<u8> {
    let mut b = (s.len() as u32).to_le_bytes().to_vec();
    b.extend_from_slice(s.as_bytes());
    b.resize(b.len() + (4 - s.len() % 4) % 4, 0);
    b
}

/// A full object (header `object`) of `class` with `props` (name, encoded value).
fn object(header: u32, class: &str, props: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut b = header.to_le_bytes().to_vec();
    b.extend(string(class));
    b.extend((props.len() as u32).to_le_bytes());
    for (name, value) in props {
        b.extend(string(name));
        b.extend(value);
    }
    b
}

fn int(v: i32) -> Vec<u8> {
    [2u32.to_le_bytes(), v.to_le_bytes()].concat()
}

fn godot4_string(s: &str) -> Vec<u8> {
    [4u32.to_le_bytes().to_vec(), string(s)].concat()
}

/// Inputs with objects allowed whose engine verdict engine mode must give (Godot 4 ids).
fn godot4_cases() -> Vec<Vec<u8>> {
    let obj = |class: &str, props: &[(&str, Vec<u8>)]| object(24, class, props);
    // ARRAY (28) typed by a script path (kind 3, bits 16–17) or a class (kind 2), `items`.
    let typed = |kind: u32, name: &str, items: &[Vec<u8>]| {
        let mut b = (28 | kind << 16).to_le_bytes().to_vec();
        b.extend(string(name));
        b.extend((items.len() as u32).to_le_bytes());
        b.extend(items.concat());
        b
    };
    let by_id = [24u32 | 1 << 16, 7, 0]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect::<Vec<_>>();
    vec![
        obj("Node", &[]),
        obj("RefCounted", &[("script", vec![0, 0, 0, 0])]),
        obj("NoSuchClass", &[]),
        obj("CanvasItem", &[]),
        obj("EditorPlugin", &[]),
        obj("RefCounted", &[("script", int(5))]),
        obj("RefCounted", &[("script", godot4_string(""))]),
        obj("RefCounted", &[("script", godot4_string("user://a.gd"))]),
        obj("RefCounted", &[("script", godot4_string("res://../a.gd"))]),
        obj("RefCounted", &[("script", obj("Node", &[]))]),
        typed(3, "", &[]),
        typed(3, "/etc/passwd", &[]),
        typed(3, "res://a/../../b.gd", &[]),
        typed(2, "", &[int(1), obj("Node", &[])]),
        typed(
            2,
            "Node",
            &[
                by_id.clone(),
                obj("Node", &[]),
                obj("RefCounted", &[]),
                int(3),
            ],
        ),
        typed(2, "RefCounted", &[by_id, obj("Resource", &[])]),
    ]
}

/// Typed Dictionaries (4.4+, objects allowed) whose types 4.4.1 sets otherwise than written:
/// a script-typed key gives its script to a value typed by a class or a script, and leaves a
/// Dictionary whose value type names no class untyped. The script is the oracle's own
/// `res://godot4_b2v.gd`, which exists in the engine's project.
fn godot4_4_dictionary_cases() -> Vec<Vec<u8>> {
    const SCRIPT: &str = "res://godot4_b2v.gd";
    // DICTIONARY (27), key kind in bits 16-17, value kind in 18-19; then their type data and
    // a count of 0.
    let typed = |key: u32, key_data: Vec<u8>, value: u32, value_data: Vec<u8>| {
        let mut b = (27 | key << 16 | value << 18).to_le_bytes().to_vec();
        b.extend(key_data);
        b.extend(value_data);
        b.extend(0u32.to_le_bytes());
        b
    };
    let builtin = |id: u32| id.to_le_bytes().to_vec();
    vec![
        typed(3, string(SCRIPT), 1, builtin(2)),
        typed(3, string(SCRIPT), 1, builtin(24)),
        typed(3, string(SCRIPT), 0, Vec::new()),
        typed(3, string(SCRIPT), 2, string("Node")),
        typed(3, string(SCRIPT), 3, string(SCRIPT)),
        // Without a script on the key side nothing moves.
        typed(1, builtin(2), 2, string("Node")),
        typed(2, string("Node"), 1, builtin(4)),
    ]
}

/// Our engine-mode verdict, in the oracle's terms.
fn ours(bytes: &[u8], dialect: Dialect, version: Version) -> Result<Vec<u8>, String> {
    let options = DecodeOptions {
        version: Some(version),
        allow_objects: true,
        engine_strict: true,
        ..DecodeOptions::default()
    };
    let (v, _) = decode(bytes, dialect, &options).map_err(|e| e.engine_error().to_string())?;
    let eo = EncodeOptions {
        version: Some(version),
        full_objects: true,
        ..EncodeOptions::default()
    };
    Ok(encode(&v, dialect, &eo).expect("what decodes encodes"))
}

/// tests/oracle/godot4_b2v.gd with objects allowed: per input the re-encoding, or the error.
fn run_godot4(bin: &Path, inputs: &[Vec<u8>]) -> Vec<Result<Vec<u8>, String>> {
    godot4::run(bin, inputs, true)
        .into_iter()
        .map(|r| match r {
            godot4::Reply::Ok { bytes, .. } => Ok(bytes),
            godot4::Reply::Err(e) => Err(e),
        })
        .collect()
}

fn godot4_engine(var: &str) -> Option<PathBuf> {
    let bin = std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_file());
    if bin.is_none() {
        assert!(
            !is_ci(),
            "{var} is not set but CI=true: eval \"$(../shared/engines/install.sh --env)\""
        );
        println!("notice: {var} not set; skipping the live engine-mode test");
    }
    bin
}

/// What must agree: refused or not (and the error), and for a decoded Array its type and the
/// kinds of the elements it kept. The engine re-encodes an object with every property of its
/// class, so objects compare by class only.
fn shape(r: &Result<Vec<u8>, String>) -> String {
    let options = DecodeOptions {
        allow_objects: true,
        ..DecodeOptions::default()
    };
    match r {
        Err(e) => format!("err {e}").replace("err ?", "err"),
        Ok(bytes) => match decode(bytes, Dialect::Godot4, &options) {
            Ok((Variant::Array(a), _)) => {
                let items: Vec<String> = a
                    .items
                    .iter()
                    .map(|v| match v {
                        Variant::Object(Object::Full(o)) => o.class.clone(),
                        // Sent by id, it comes back from the engine as its wrapper object.
                        Variant::Object(Object::Id(_)) => "EncodedObjectAsID".into(),
                        v => format!("{:?}", v.kind()),
                    })
                    .collect();
                format!("ok {:?} {items:?}", a.typed.map(|t| t.element))
            }
            Ok((Variant::Dictionary(d), _)) => format!("ok Dictionary {:?}", d.typed()),
            Ok((v, _)) => format!("ok {:?}", v.kind()),
            Err(e) => format!("undecodable {e}"),
        },
    }
}

fn agree_with_godot4(var: &str, version: Version) {
    let Some(bin) = godot4_engine(var) else {
        return;
    };
    let mut inputs = godot4_cases();
    if version >= Version::new(4, 4, 0) {
        inputs.extend(godot4_4_dictionary_cases());
    }
    let theirs = run_godot4(&bin, &inputs);
    let mut refused = 0;
    let mut bad = Vec::new();
    for (input, theirs) in inputs.iter().zip(&theirs) {
        let mine = ours(input, Dialect::Godot4, version);
        refused += usize::from(theirs.is_err());
        let (a, b) = (shape(&mine), shape(theirs));
        // An engine error whose name it did not print ("?") agrees with any error.
        if a != b && !(b == "err" && a.starts_with("err")) {
            bad.push(format!("{}: ours {a}, engine {b}", hex(input)));
        }
        // Default decoding reads what the engine refuses, as data.
        let options = DecodeOptions {
            version: Some(version),
            allow_objects: true,
            ..DecodeOptions::default()
        };
        assert!(
            decode(input, Dialect::Godot4, &options).is_ok(),
            "{}",
            hex(input)
        );
    }
    assert!(bad.is_empty(), "{var}:\n{}", bad.join("\n"));
    assert!(
        refused >= 8,
        "{var}: only {refused} refusals: the cases lost their point"
    );
}

#[test]
fn godot4_3_objects_and_typed_arrays_get_the_engines_verdict() {
    agree_with_godot4("GODOT4_3", Version::new(4, 3, 0));
}

#[test]
fn godot4_4_objects_and_typed_arrays_get_the_engines_verdict() {
    agree_with_godot4("GODOT4_4", Version::new(4, 4, 1));
}

/// Godot 3.2.3 refuses a class it cannot instance (ERR_UNAVAILABLE) and ignores `script`.
#[test]
fn godot3_objects_get_the_engines_verdict() {
    let Some(engine) = godot3::engine() else {
        return;
    };
    let obj = |class: &str, props: &[(&str, Vec<u8>)]| object(17, class, props);
    let inputs = [
        obj("Node", &[]),
        obj("Reference", &[("script", int(5))]),
        obj(
            "Reference",
            &[(
                "script",
                [4u32.to_le_bytes().to_vec(), string("res://nope.gd")].concat(),
            )],
        ),
        obj("NoSuchClass", &[]),
        obj("CanvasItem", &[]),
        obj("EditorPlugin", &[]),
    ];
    let blobs: Vec<(Vec<u8>, bool)> = inputs.iter().map(|b| (b.clone(), true)).collect();
    let version = Version::new(3, 2, 3);
    for (input, reply) in inputs.iter().zip(engine.bytes2var(&blobs)) {
        let options = DecodeOptions {
            version: Some(version),
            allow_objects: true,
            engine_strict: true,
            ..DecodeOptions::default()
        };
        let mine = decode(input, Dialect::Godot3, &options);
        match reply {
            godot3::Reply::Ok { .. } => assert!(mine.is_ok(), "{}: {mine:?}", hex(input)),
            godot3::Reply::Err(e) => {
                let err = mine.expect_err(&hex(input));
                assert!(
                    e == "?" || e == err.engine_error(),
                    "{}: engine {e}, ours {err}",
                    hex(input)
                );
            }
        }
    }
}

/// What the engine holds where the bytes it wrote do not read back as they were: an Array or
/// Dictionary side typed by an object type (builtin OBJECT, a class, a script) read without
/// objects is typed by the class `EncodedObjectAsID` (Godot 4.3 `decode_variant` case ARRAY,
/// 4.4.1 `_decode_container_type`), and Godot 3 reads an absolute NodePath with no names
/// (3.2.3 writes `NodePath("/")` so) as relative. Both checked live by
/// tests/differential_engines.rs.
fn as_the_engine_reads(v: &mut Variant, dialect: Dialect, objects: bool) {
    if let (Dialect::Godot3, Variant::NodePath(p)) = (dialect, &mut *v) {
        if p.names.is_empty() && p.subnames.is_empty() {
            p.absolute = false;
        }
    }
    if !objects {
        typed_as_read_without_objects(v);
    }
}

fn typed_as_read_without_objects(v: &mut Variant) {
    let retype = |t: &mut ElementType| {
        if matches!(
            t,
            ElementType::Builtin(Kind::Object) | ElementType::Class(_) | ElementType::Script(_)
        ) {
            *t = ElementType::Class("EncodedObjectAsID".into());
        }
    };
    match v {
        Variant::Array(a) => {
            if let Some(t) = a.typed.as_deref_mut() {
                retype(&mut t.element);
            }
            a.items.iter_mut().for_each(typed_as_read_without_objects);
        }
        Variant::Dictionary(d) => {
            if let Some(t) = d.typed_mut() {
                t.key.iter_mut().chain(t.value.iter_mut()).for_each(retype);
            }
            let mut entries: Vec<(Variant, Variant)> = d.entries().to_vec();
            for (k, v) in &mut entries {
                typed_as_read_without_objects(k);
                typed_as_read_without_objects(v);
            }
            let typed = d.typed().cloned();
            *d = Dictionary::new();
            d.set_typed(typed);
            for (k, v) in entries {
                d.insert(k, v);
            }
        }
        _ => {}
    }
}

/// Bytes the engines wrote pass engine mode unchanged (their classes exist, their typed
/// containers hold what their types allow), but for what the engine itself retypes: an
/// object-typed container read without objects.
#[test]
fn engine_made_fixtures_read_the_same_in_engine_mode() {
    for (dir, dialect, version) in [
        ("godot4", Dialect::Godot4, Version::new(4, 3, 0)),
        ("godot3", Dialect::Godot3, Version::new(3, 2, 3)),
    ] {
        let mut n = 0;
        for f in common::load(dir) {
            if f.name.contains("malformed") || f.json.get("error").is_some() {
                continue;
            }
            let base = DecodeOptions {
                version: Some(version),
                allow_objects: f.bool("full_objects"),
                keep_leading_bom: true,
                ..DecodeOptions::default()
            };
            let Ok((mut want, _)) = decode(&f.bytes, dialect, &base) else {
                continue;
            };
            as_the_engine_reads(
                &mut want,
                dialect,
                base.allow_objects || dialect == Dialect::Godot3,
            );
            let strict = DecodeOptions {
                engine_strict: true,
                ..base
            };
            let (got, _) = decode(&f.bytes, dialect, &strict)
                .unwrap_or_else(|e| panic!("{dir}/{}: {e}", f.name));
            assert!(got.same(&want), "{dir}/{}: {got:?} != {want:?}", f.name);
            n += 1;
        }
        assert!(n > 100, "{dir}: only {n} fixtures read");
    }
}

/// `explain` notes, at its offset, what the engine would refuse, and reads on.
#[test]
fn explain_notes_engine_refusals() {
    let bytes = object(24, "CanvasItem", &[]);
    let mut options = explain::ExplainOptions::new(Dialect::Godot4);
    options.decode.allow_objects = true;
    let text = explain::explain(&bytes, &options).to_string();
    assert!(text.contains("engine refuses (ERR_INVALID_DATA)"), "{text}");
    assert!(text.contains("1 value(s), every byte explained"), "{text}");
    options.decode.engine_strict = true;
    let e = explain::explain(&bytes, &options);
    assert!(e.error.is_some(), "{e}");
}

/// The class lists reach every release with class data: a class added in a later release is
/// refused by an earlier one's engine mode and read by its own (Godot 4.0 and 4.1 from their
/// `extension_api.json`, Godot 3.4 and 3.5 from their `api.json`; 3.3 and 3.6 have no list,
/// and their class check is skipped).
#[test]
fn each_release_with_class_data_judges_by_its_own_list() {
    let refuses =
        |bytes: &[u8], dialect: Dialect, version: Version| ours(bytes, dialect, version).is_err();
    // AnimationLibrary is a Godot 4.0 class (Resource); Tween there is RefCounted, not a Node.
    let library = object(24, "AnimationLibrary", &[]);
    assert!(!refuses(&library, Dialect::Godot4, Version::new(4, 0, 4)));
    assert!(!refuses(&library, Dialect::Godot4, Version::new(4, 1, 0)));
    assert!(refuses(
        &object(24, "NoSuchClass", &[]),
        Dialect::Godot4,
        Version::new(4, 0, 0)
    ));
    // AESContext arrived after 3.2: refused by 3.2.3's list, read by 3.4's and 3.5's.
    let aes = object(17, "AESContext", &[]);
    assert!(refuses(&aes, Dialect::Godot3, Version::new(3, 2, 3)));
    assert!(!refuses(&aes, Dialect::Godot3, Version::new(3, 4, 0)));
    assert!(!refuses(&aes, Dialect::Godot3, Version::new(3, 5, 1)));
    assert!(refuses(
        &object(17, "NoSuchClass", &[]),
        Dialect::Godot3,
        Version::new(3, 5, 0)
    ));
    // No list for 3.6: not judged.
    assert!(!refuses(
        &object(17, "NoSuchClass", &[]),
        Dialect::Godot3,
        Version::new(3, 6, 1)
    ));
}
