//! The golden output of golden.rs compiles and behaves: it is included here as a module.

// The generated code names `crate::{version, layout, math}`: lend it the library's.
mod version {
    pub use gdvariant::version::*;
}
mod layout {
    pub use gdvariant::layout::*;
}
mod math {
    pub use gdvariant::math::*;
}
#[rustfmt::skip]
#[allow(dead_code)]
#[path = "golden/generated/mod.rs"]
mod generated;

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
    // Fixed layouts.
    let mut out = Vec::new();
    generated::layouts::encode_vector2(&math::Vector2 { x: 1.5, y: -2.0 }, false, &mut out);
    assert_eq!(out, [0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0]);
    assert_eq!(
        generated::layouts::decode_vector2(&out, false),
        math::Vector2 { x: 1.5, y: -2.0 }
    );
    assert_eq!(generated::layouts::vector2i_size(true), 8);
    assert_eq!(Kind::ALL.len(), 7);
    assert_eq!(Kind::Vector2i.name(), "Vector2i");
}
