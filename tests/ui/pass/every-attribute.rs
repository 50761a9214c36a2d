//! Every `#[godot(...)]` attribute in one place, used as documented.
use gdvariant::{ElementType, FromVariant, GodotVariant, Kind, ToVariant, TypedArrayElement, Variant};

mod as_text {
    use gdvariant::{FromVariant, FromVariantError, Variant};
    pub fn to_variant(v: &u32) -> Variant {
        Variant::String(v.to_string().into())
    }
    pub fn from_variant(v: &Variant) -> Result<u32, FromVariantError> {
        String::from_variant(v)?.parse().map_err(FromVariantError::custom)
    }
}

fn three() -> u8 {
    3
}

#[derive(GodotVariant, Debug, PartialEq, Default)]
struct Rules {
    #[godot(default)]
    friendly_fire: bool,
}

#[derive(GodotVariant, Debug, PartialEq, Default)]
#[godot(rename_all = "camelCase", deny_unknown_fields, default)]
struct Settings {
    #[godot(alias = "players", alias = "max")]
    max_players: u8,
    #[godot(flatten)]
    rules: Rules,
    #[godot(rename = "title")]
    name: String,
    #[godot(skip)]
    cache: Vec<u8>,
    #[godot(default = "three")]
    lives: u8,
    #[godot(with = "as_text")]
    seed: u32,
    #[godot(array)]
    scores: Vec<i64>,
    #[godot(typed_array)]
    ids: Vec<i64>,
}

#[derive(GodotVariant, Debug, PartialEq)]
#[godot(object = "Resource")]
struct Saved {
    resource_name: String,
}

#[derive(GodotVariant, Debug, PartialEq)]
#[godot(as_string, rename_all = "snake_case")]
enum Mode {
    FreeForAll,
    Teams,
}

#[derive(GodotVariant, Debug, PartialEq)]
#[godot(tag = "kind", content = "data", rename_all = "lowercase", deny_unknown_fields)]
enum Event {
    Join { name: String },
    Chat(String),
    Leave,
}

#[derive(GodotVariant, Debug, PartialEq)]
#[godot(crate = "gdvariant")]
struct Meters(f64);

fn main() {
    let s = Settings { max_players: 8, name: "x".into(), seed: 7, ..Default::default() };
    let v = s.to_variant();
    let Variant::Dictionary(d) = &v else { panic!() };
    assert!(d.get_str("maxPlayers").is_some() && d.get_str("title").is_some());
    assert_eq!(d.get_str("friendly_fire"), Some(&Variant::Bool(false)));
    assert_eq!(d.get_str("seed"), Some(&Variant::String("7".into())));
    assert!(matches!(d.get_str("scores"), Some(Variant::Array(a)) if a.typed.is_none()));
    assert!(matches!(d.get_str("ids"), Some(Variant::Array(a)) if a.typed.is_some()));
    assert_eq!(Settings::from_variant(&v).unwrap(), Settings { lives: 0, ..s });
    assert_eq!(Mode::FreeForAll.to_variant(), Variant::String("free_for_all".into()));
    assert_eq!(Saved::element_type(), ElementType::Class("Resource".into()));
    assert_eq!(Meters::element_type(), ElementType::Builtin(Kind::Float));
    for e in [Event::Join { name: "a".into() }, Event::Chat("hi".into()), Event::Leave] {
        assert_eq!(Event::from_variant(&e.to_variant()).unwrap(), e);
    }
    let _ = Saved { resource_name: String::new() }.to_variant();
}
