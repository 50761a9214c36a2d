//! Derived types filled from the properties of engine-made save resources (Godot 3.2.3 and
//! 4.3/4.4.1, `.tres` and `.res`): `Resource::to_typed`, a sub-resource through its
//! reference, errors that name the property, and `set_typed` writing an unedited value back
//! to the engine's bytes.

use gdvariant::math::{Color, Vector2};
use gdvariant::resource::ResourceFile;
use gdvariant::text::reference_of;
use gdvariant::{Dictionary, GodotVariant, NodePath, Variant};

/// The save script's exported properties (tests/fixtures/resource/*/save_game.gd).
#[derive(GodotVariant, Debug, Clone, PartialEq)]
struct Save {
    name: String,
    hp: i64,
    speed: f64,
    pos: Vector2,
    tags: Vec<String>,
    /// A Dictionary keeps the file's key order (a `BTreeMap` would sort it).
    stats: Dictionary,
    big: i64,
    ids: Vec<i32>,
    np: NodePath,
    col: Color,
    bytes: Vec<u8>,
    mixed: Vec<Variant>,
    /// A reference to a sub-resource (`SubResource("…")`), resolved with the file.
    child: Variant,
    /// Godot 4 only: absent from the Godot 3 saves.
    #[godot(default)]
    sn: String,
}

/// The child sub-resource holds only `resource_name`.
#[derive(GodotVariant, Debug, PartialEq)]
struct Named {
    resource_name: String,
}

fn read(name: &str) -> (Vec<u8>, ResourceFile) {
    let path = format!(
        "{}/tests/fixtures/resource/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap();
    let file = ResourceFile::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    (bytes, file)
}

const SAVES: &[&str] = &[
    "godot3.2/save.tres",
    "godot3.2/save.res",
    "godot4.3/save.tres",
    "godot4.3/save.res",
    "godot4.4/save.tres",
    "godot4.4/save.res",
];

#[test]
fn engine_saves_fill_a_derived_struct() {
    for name in SAVES {
        let (_, file) = read(name);
        let save: Save = file
            .main
            .to_typed()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            (save.name.as_str(), save.hp, save.speed),
            ("ann", 90, 2.5),
            "{name}"
        );
        assert_eq!(save.pos, Vector2::new(1.0, 2.0), "{name}");
        assert_eq!(save.tags, ["a", "b"], "{name}");
        assert_eq!(save.stats.get_str("str"), Some(&Variant::Int(5)), "{name}");
        assert_eq!(save.big, 1 << 40, "{name}");
        assert_eq!(save.ids, [1, -2, 3], "{name}");
        assert_eq!(save.np.to_string(), "a/b:c", "{name}");
        assert_eq!(save.col, Color::new(1.0, 0.5, 0.25, 1.0), "{name}");
        assert_eq!(save.bytes, [1, 2, 3, 4, 5], "{name}");
        assert_eq!(save.mixed.len(), 5, "{name}");
        let want_sn = if name.starts_with("godot3") {
            ""
        } else {
            "hello"
        };
        assert_eq!(save.sn, want_sn, "{name}");
        // The reference names a sub-resource of the same file, itself typed.
        let (class, id) = reference_of(&save.child).expect("a reference");
        assert_eq!(class, "SubResource", "{name}");
        let child: Named = file
            .sub_resource(id)
            .expect("in the file")
            .to_typed()
            .unwrap();
        assert_eq!(child.resource_name, "child", "{name}");
    }
}

#[test]
fn a_mistyped_field_is_refused_naming_the_property() {
    #[derive(GodotVariant, Debug)]
    #[allow(dead_code)]
    struct Wrong {
        hp: String,
    }
    let (_, file) = read("godot4.4/save.res");
    let err = file.main.to_typed::<Wrong>().unwrap_err().to_string();
    assert!(
        err.contains("hp") && err.contains("expected String"),
        "{err}"
    );
    eprintln!("{err}");
}

#[test]
fn set_typed_writes_the_fields_back() {
    for name in SAVES {
        let (bytes, mut file) = read(name);
        // The value read, set back unedited: the engine's bytes again.
        let mut save: Save = file.main.to_typed().unwrap();
        if name.starts_with("godot3") {
            // `sn` is the Godot 4 script's; the Godot 3 save has none to set back.
            #[derive(GodotVariant)]
            struct Hp {
                hp: i64,
                name: String,
            }
            assert!(file.main.set_typed(&Hp {
                hp: save.hp,
                name: save.name.clone()
            }));
        } else {
            assert!(file.main.set_typed(&save));
        }
        assert!(
            file.write().unwrap() == bytes,
            "{name}: not the engine's bytes"
        );
        // An edit reads back.
        save.hp = 7;
        save.tags.push("c".into());
        assert!(file.main.set_typed(&save));
        let back = ResourceFile::read(&file.write().unwrap()).unwrap();
        let again: Save = back.main.to_typed().unwrap();
        assert_eq!((again.hp, again.tags.len()), (7, 3), "{name}");
    }
}
