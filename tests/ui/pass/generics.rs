//! Generic structs and enums, nested derived types and references to other derived types.
use gdvariant::{FromVariant, GodotVariant, ToVariant, Variant};

#[derive(GodotVariant, Debug, PartialEq, Clone)]
struct Slot<T> {
    item: T,
    count: u16,
}

#[derive(GodotVariant, Debug, PartialEq, Clone)]
struct Inventory<T, const N: usize> {
    slots: Vec<Slot<T>>,
    hotbar: [Option<T>; N],
}

#[derive(GodotVariant, Debug, PartialEq, Clone)]
enum Reply<T> {
    Ok { value: T },
    Err(String),
    Pending,
}

#[derive(GodotVariant, Debug, PartialEq, Clone)]
struct Wrapper<'a, T: Clone> where T: PartialEq {
    #[godot(skip)]
    note: Option<&'a str>,
    inner: T,
}

fn check<T: ToVariant + FromVariant + PartialEq + std::fmt::Debug>(value: T) {
    let v: Variant = value.to_variant();
    assert_eq!(T::from_variant(&v).unwrap(), value);
}

fn main() {
    let inv = Inventory::<String, 2> {
        slots: vec![Slot { item: "sword".to_string(), count: 1 }],
        hotbar: [Some("potion".to_string()), None],
    };
    check(inv);
    check(Reply::<i32>::Ok { value: 3 });
    check(Reply::<i32>::Err("no".into()));
    check(Reply::<i32>::Pending);
    check(Wrapper::<Slot<f32>> { note: None, inner: Slot { item: 0.5, count: 2 } });
}
