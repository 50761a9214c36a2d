fn main() { println!("Variant {} Dictionary {} Array {}", std::mem::size_of::<gdvariant::Variant>(), std::mem::size_of::<gdvariant::Dictionary>(), std::mem::size_of::<gdvariant::Array>()); }
