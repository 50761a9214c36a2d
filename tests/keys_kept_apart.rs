//! Dictionary keys the engines keep apart although they are equal: Dictionaries in Godot 3
//! (compared by identity), and non-null Objects in every engine (compared by instance, and
//! every decoded object is a new one). Checked against the live Godot 3.2.3, 4.3 and 4.4.1.

mod common;
#[path = "support/godot3.rs"]
mod godot3;
#[path = "support/godot4.rs"]
mod godot4;

use gdvariant::json::{from_json, from_json_str, to_json, to_json_string};
use gdvariant::{
    decode, decode_borrowed, encode, from_text, to_text_exact, DecodeOptions, Dialect,
    EncodeOptions, Variant,
};

fn u(xs: &[u32]) -> Vec<u8> {
    xs.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// An object id as Godot 3 (`OBJECT` 17) or Godot 4 (`OBJECT` 24) writes it without objects.
fn object_id(object: u32, id: u64) -> Vec<u8> {
    let mut b = u(&[object | 1 << 16]);
    b.extend(id.to_le_bytes());
    b
}

/// `{k1: 1, k2: 2}` in a dialect whose DICTIONARY id is `dict`.
fn two_keys(dict: u32, k1: &[u8], k2: &[u8]) -> Vec<u8> {
    let mut b = u(&[dict, 2]);
    b.extend(k1);
    b.extend(u(&[2, 1]));
    b.extend(k2);
    b.extend(u(&[2, 2]));
    b
}

struct Case {
    name: &'static str,
    bytes: Vec<u8>,
    /// Entries the engine keeps (seen on 3.2.3, 4.3 and 4.4.1).
    entries: usize,
}

fn godot3_cases() -> Vec<Case> {
    let (dict, array, object) = (18, 19, 17);
    let empty_dict = u(&[dict, 0]);
    let array_of_dict = [u(&[array, 1]), empty_dict.clone()].concat();
    vec![
        Case {
            name: "two empty Dictionaries",
            bytes: two_keys(dict, &empty_dict, &empty_dict),
            entries: 2,
        },
        Case {
            name: "two Arrays holding an empty Dictionary",
            bytes: two_keys(dict, &array_of_dict, &array_of_dict),
            entries: 2,
        },
        Case {
            name: "two empty Arrays",
            bytes: two_keys(dict, &u(&[array, 0]), &u(&[array, 0])),
            entries: 1,
        },
        Case {
            name: "one object id twice",
            bytes: two_keys(dict, &object_id(object, 5), &object_id(object, 5)),
            entries: 2,
        },
        Case {
            name: "two null objects (NIL)",
            bytes: two_keys(dict, &u(&[0]), &u(&[0])),
            entries: 1,
        },
    ]
}

fn godot4_cases() -> Vec<Case> {
    let (dict, array, object) = (27, 28, 24);
    let empty_dict = u(&[dict, 0]);
    let id = object_id(object, 5);
    let array_of_object = [u(&[array, 1]), id.clone()].concat();
    let dict_of_object = [u(&[dict, 1]), u(&[2, 7]), id.clone()].concat();
    vec![
        Case {
            name: "two empty Dictionaries",
            bytes: two_keys(dict, &empty_dict, &empty_dict),
            entries: 1,
        },
        Case {
            name: "two empty Arrays",
            bytes: two_keys(dict, &u(&[array, 0]), &u(&[array, 0])),
            entries: 1,
        },
        Case {
            name: "one object id twice",
            bytes: two_keys(dict, &id, &id),
            entries: 2,
        },
        Case {
            name: "two Arrays holding one object id",
            bytes: two_keys(dict, &array_of_object, &array_of_object),
            entries: 2,
        },
        Case {
            name: "two Dictionaries holding one object id",
            bytes: two_keys(dict, &dict_of_object, &dict_of_object),
            entries: 2,
        },
    ]
}

fn entries(v: &Variant) -> usize {
    v.as_dictionary().map_or(usize::MAX, |d| d.len())
}

/// Our reading keeps as many entries as the engine, and every form gives the value back.
fn check(dialect: Dialect, cases: &[Case]) {
    let options = DecodeOptions::default();
    for c in cases {
        let (v, _) = decode(&c.bytes, dialect, &options).unwrap();
        assert_eq!(entries(&v), c.entries, "{dialect:?} {}: {v:?}", c.name);
        let (r, _) = decode_borrowed(&c.bytes, dialect, &options).unwrap();
        assert_eq!(r.to_owned(), v, "{dialect:?} {}: borrowed", c.name);
        let text = to_text_exact(&v, dialect);
        assert_eq!(
            from_text(&text, dialect).unwrap(),
            v,
            "{}: text {text}",
            c.name
        );
        assert_eq!(from_json(&to_json(&v)).unwrap(), v, "{}: JSON", c.name);
        assert_eq!(
            from_json_str(&to_json_string(&v)).unwrap(),
            v,
            "{}: JSON text",
            c.name
        );
        if c.entries == 2 {
            // What the engine kept apart goes out as it came in.
            let again = encode(&v, dialect, &EncodeOptions::default()).unwrap();
            assert_eq!(again, c.bytes, "{dialect:?} {}: re-encoding", c.name);
        }
    }
}

#[test]
fn godot3_keeps_dictionary_and_object_keys_apart() {
    check(Dialect::Godot3, &godot3_cases());
}

#[test]
fn godot4_keeps_object_keys_apart_and_merges_equal_dictionaries() {
    check(Dialect::Godot4, &godot4_cases());
}

/// The engines' own verdicts: the entries of their re-encoding (object ids come back as the
/// ids of new `EncodedObjectAsID` instances, so only the count is compared).
#[test]
fn the_engines_keep_as_many_entries_as_we_do() {
    if let Some(engine) = godot3::engine() {
        let cases = godot3_cases();
        let blobs: Vec<_> = cases.iter().map(|c| (c.bytes.clone(), false)).collect();
        for (c, reply) in cases.iter().zip(engine.bytes2var(&blobs)) {
            let godot3::Reply::Ok { bytes, .. } = reply else {
                panic!("3.2.3 refused {}: {reply:?}", c.name)
            };
            let (v, _) = decode(&bytes, Dialect::Godot3, &DecodeOptions::default()).unwrap();
            assert_eq!(entries(&v), c.entries, "3.2.3 {}: {v:?}", c.name);
        }
    }
    for var in ["GODOT4_3", "GODOT4_4"] {
        let Some(bin) = std::env::var_os(var) else {
            assert_ne!(
                std::env::var("CI").as_deref(),
                Ok("true"),
                "{var} is not set but CI=true: run ../shared/engines/install.sh"
            );
            println!("notice: {var} not set; skipping the live Godot 4 check");
            continue;
        };
        let cases = godot4_cases();
        let inputs: Vec<_> = cases.iter().map(|c| c.bytes.clone()).collect();
        let replies = godot4::run(std::path::Path::new(&bin), &inputs, false);
        for (c, reply) in cases.iter().zip(replies) {
            let godot4::Reply::Ok { bytes, .. } = reply else {
                panic!("{var} refused {}: {reply:?}", c.name)
            };
            let (v, _) = decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).unwrap();
            assert_eq!(entries(&v), c.entries, "{var} {}: {v:?}", c.name);
        }
    }
}
