//! The golden output of golden.rs compiles and behaves: it is included here as a module.

// The generated tables name `crate::version`: lend them the library's.
mod version {
    pub use gdvariant::Version;
}
// The tables compile as they are; `math.rs` and `value.rs` implement the library's own traits
// for the library's own value enums, so they are compared as text only (golden.rs), and the
// library's copy of them compiles with the library.
#[rustfmt::skip]
#[allow(dead_code)]
#[path = "golden/generated/kinds.rs"]
pub mod golden_kinds;
#[rustfmt::skip]
#[allow(dead_code)]
#[path = "golden/generated/mini.rs"]
pub mod golden_mini;
mod generated {
    pub use super::golden_kinds as kinds;
    pub use super::golden_mini as mini;
}

#[test]
fn golden_output_behaves() {
    use generated::kinds::{Feature, Kind};
    use generated::mini;
    use version::Version;
    let (v1, v2) = (Version::new(1, 0, 0), Version::new(2, 0, 0));
    // Renumbering between eras.
    assert_eq!(mini::kind_of(v1, 4), Some(Kind::Rid));
    assert_eq!(mini::kind_of(v2, 4), Some(Kind::Array));
    assert_eq!(mini::id_of(v1, Kind::Vector2i), None);
    assert_eq!(mini::id_of(v2, Kind::Vector2i), Some(6));
    assert_eq!(mini::kind_of(v2, 7), None);
    // FLAG_64: by value for Int (never "reals"), by build for Vector2 from 1.1.
    assert!(!mini::flag64_reals(v2, Kind::Int));
    assert!(!mini::flag64_reals(v1, Kind::Vector2));
    assert!(mini::flag64_reals(Version::new(1, 1, 0), Kind::Vector2));
    // Feature with two ranges.
    assert!(!mini::has_feature(v1, Feature::DecodeDepthLimit));
    assert!(mini::has_feature(
        Version::new(1, 0, 5),
        Feature::DecodeDepthLimit
    ));
    assert!(!mini::has_feature(v2, Feature::DecodeDepthLimit));
    assert!(mini::has_feature(
        Version::new(2, 0, 1),
        Feature::DecodeDepthLimit
    ));
    // Layout and name by version.
    let old = mini::type_info(v1, Kind::Array).expect("array exists");
    let new = mini::type_info(v2, Kind::Array).expect("array exists");
    assert_eq!(old.fields[0].name, "count");
    assert_eq!(old.fields[0].offset, 4);
    assert_eq!(new.fields[1].offset, generated::kinds::FieldInfo::VARIABLE);
    assert_eq!(
        mini::type_info(v1, Kind::Int).map(|t| t.name),
        Some("INTEGER")
    );
    assert_eq!(mini::type_info(v2, Kind::Int).map(|t| t.name), Some("INT"));
    assert_eq!(
        mini::type_info(v2, Kind::Int).map(|t| t.wide_fields[0].len),
        Some(8)
    );
    // Kind tables from the common file, text names from the dialect.
    assert!(Kind::Color.is_fixed() && !Kind::Rid.is_fixed());
    assert_eq!(Kind::Vector2i.migrate_to(), Some(Kind::Vector2));
    assert_eq!(Kind::from_text_name("Colour"), Some(Kind::Color));
    assert_eq!(Kind::from_text_name("Colour8"), Some(Kind::Color));
    assert_eq!(mini::text_ctor(Kind::Color), ("Colour8", true));
    assert_eq!(mini::text_ctor(Kind::Vector2), ("Vector2", false));
    assert_eq!(Kind::ALL.len(), 7);
    assert_eq!(Kind::Vector2i.name(), "Vector2i");
}
