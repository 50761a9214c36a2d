//! Where in a map a serde error happened: a struct field by name, any other entry by its key.

use crate::convert::PathSegment;
use crate::error::SerdeError as Error;
use crate::variant::Variant;

impl Error {
    /// One map entry further in: `.name` for a String key of a struct, else `[key]`.
    pub(crate) fn at_entry(self, key: &Variant, is_struct: bool) -> Error {
        match key {
            Variant::String(s) if is_struct => self.in_field(s),
            Variant::StringName(s) if is_struct => self.in_field(&s.0),
            _ => self.at(PathSegment::key(key)),
        }
    }
}
