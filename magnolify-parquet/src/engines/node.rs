//! Schema nodes as the engine rules see them: a path and typed questions
//! about the annotation ("is this a UUID?"), so each rule is one line. The
//! annotation is read with the crate's [`Annotation`], which folds
//! logical and legacy converted types into one.

use parquet::basic::{Repetition, Type as Physical};
use parquet::schema::types::Type;

use crate::logical::Annotation;
use crate::TimeUnit;

/// A node of the schema, with its dotted path.
pub(super) struct Node<'a> {
    /// Dotted path from the root.
    pub(super) path: String,
    /// The node.
    pub(super) ty: &'a Type,
}

impl<'a> Node<'a> {
    /// Every node under `message` (not the message itself), parents first.
    /// Iterative, so that no schema depth can overflow the stack.
    pub(super) fn walk(message: &'a Type) -> Vec<Node<'a>> {
        let mut out = Vec::new();
        let mut stack: Vec<(String, &'a Type)> =
            message.get_fields().iter().rev().map(|f| (f.name().to_owned(), f.as_ref())).collect();
        while let Some((path, ty)) = stack.pop() {
            if ty.is_group() {
                for f in ty.get_fields().iter().rev() {
                    stack.push((format!("{path}.{}", f.name()), f.as_ref()));
                }
            }
            out.push(Node { path, ty });
        }
        out
    }

    /// The node's annotation, as magnolify-parquet reads it (logical type,
    /// else converted type).
    fn annotation(&self) -> Annotation {
        Annotation::of(self.ty)
    }

    /// The physical type of a leaf.
    pub(super) fn physical(&self) -> Option<Physical> {
        match self.ty {
            Type::PrimitiveType { physical_type, .. } => Some(*physical_type),
            Type::GroupType { .. } => None,
        }
    }

    /// UUID.
    pub(super) fn is_uuid(&self) -> bool {
        self.annotation() == Annotation::Uuid
    }

    /// FLOAT16.
    pub(super) fn is_float16(&self) -> bool {
        self.annotation() == Annotation::Float16
    }

    /// ENUM.
    pub(super) fn is_enum(&self) -> bool {
        self.annotation() == Annotation::Enum
    }

    /// BSON.
    pub(super) fn is_bson(&self) -> bool {
        self.annotation() == Annotation::Bson
    }

    /// INTERVAL (converted: it has no logical type).
    pub(super) fn is_interval(&self) -> bool {
        self.annotation() == Annotation::Interval
    }

    /// An INT96 leaf.
    pub(super) fn is_int96(&self) -> bool {
        self.physical() == Some(Physical::INT96)
    }

    /// TIME: its unit and UTC flag (legacy TIME_* are adjusted to UTC).
    pub(super) fn time(&self) -> Option<(TimeUnit, bool)> {
        match self.annotation() {
            Annotation::Time { unit, utc } => Some((unit, utc)),
            _ => None,
        }
    }

    /// TIMESTAMP: its unit and UTC flag (legacy TIMESTAMP_* mean UTC).
    pub(super) fn timestamp(&self) -> Option<(TimeUnit, bool)> {
        match self.annotation() {
            Annotation::Timestamp { unit, utc } => Some((unit, utc)),
            _ => None,
        }
    }

    /// Integer annotation: (bit width, signed).
    pub(super) fn integer(&self) -> Option<(i32, bool)> {
        match self.annotation() {
            Annotation::Integer { bits, signed } => Some((i32::from(bits), signed)),
            _ => None,
        }
    }

    /// The precision of a DECIMAL leaf.
    pub(super) fn decimal_precision(&self) -> Option<i32> {
        match self.annotation() {
            Annotation::Decimal { precision, .. } if !self.ty.is_group() => Some(precision),
            _ => None,
        }
    }

    /// A MAP (or MAP_KEY_VALUE) group whose key/value group holds a key only.
    pub(super) fn is_key_only_map(&self) -> bool {
        if self.annotation() != Annotation::Map || !self.ty.is_group() {
            return false;
        }
        match self.ty.get_fields() {
            [kv] => {
                kv.is_group() && kv.get_basic_info().repetition() == Repetition::REPEATED && kv.get_fields().len() == 1
            }
            _ => false,
        }
    }
}

/// A unit's name as the format spells it (`MILLIS`).
pub(super) fn unit_name(unit: TimeUnit) -> String {
    format!("{unit:?}").to_ascii_uppercase()
}
