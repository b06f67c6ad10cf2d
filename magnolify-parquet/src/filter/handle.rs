//! Field handles: a column path and a way to the field's value in a
//! record, typed by the record and the field's own type.

use std::collections::{BTreeMap, HashMap};
use std::marker::PhantomData;
use std::sync::Arc;

use crate::options::FieldOptions;

/// How a record reaches one of its values: `None` where an optional field
/// on the way (or the value itself) is null.
pub(crate) type Getter<R, T> = Arc<dyn Fn(&R) -> Option<&T> + Send + Sync>;

/// How a record's value is made, converted from a field's (`None` where a
/// field on the way is null).
type Converter<R, T> = Arc<dyn Fn(&R) -> Option<T> + Send + Sync>;

/// How a handle reaches its value in a record: by reference, or (for a
/// field that borrows, `&str` compared as a `String`) as a value converted
/// from the field's.
pub(crate) enum Reach<R, T> {
    Ref(Getter<R, T>),
    Converted(Converter<R, T>),
}

impl<R, T> Clone for Reach<R, T> {
    fn clone(&self) -> Self {
        match self {
            Reach::Ref(get) => Reach::Ref(get.clone()),
            Reach::Converted(get) => Reach::Converted(get.clone()),
        }
    }
}

impl<R, T> Reach<R, T> {
    /// `test` of the value in `record` (`None` for a null).
    #[inline]
    pub(crate) fn test<U>(&self, record: &R, test: impl FnOnce(Option<&T>) -> U) -> U {
        match self {
            Reach::Ref(get) => test(get(record)),
            Reach::Converted(get) => test(get(record).as_ref()),
        }
    }
}

/// Where a field sits in records of `R`: its Parquet path from the root
/// and how to reach its value. Generated code builds these; users get them
/// inside the handles of `T::fields()`.
pub struct At<R, T: ?Sized> {
    /// The names from the root (names may hold dots: compare them, not
    /// their dotted join).
    parts: Vec<String>,
    /// The options of the field the value is read as (its own, or those of
    /// the field it is inside of: a newtype's, an `Option`'s).
    opts: FieldOptions,
    get: Getter<R, T>,
}

impl<R: 'static> At<R, R> {
    /// The record itself, at the root.
    pub fn root() -> Self {
        At { parts: Vec::new(), opts: FieldOptions::DEFAULT, get: Arc::new(|r: &R| Some(r)) }
    }
}

impl<R: 'static, T: ?Sized + 'static> At<R, T> {
    /// The member `name` of the value here, read with field options
    /// `opts` and reached by `get` (which returns `None` for a null).
    pub fn child<U: ?Sized + 'static>(&self, name: &str, opts: FieldOptions, get: fn(&T) -> Option<&U>) -> At<R, U> {
        let parent = self.get.clone();
        let mut parts = self.parts.clone();
        parts.push(name.to_owned());
        At { parts, opts, get: Arc::new(move |r: &R| parent(r).and_then(get)) }
    }

    /// The same place, seen through `get` (an `Option` or a `Box` around
    /// the value).
    pub fn map<U: ?Sized + 'static>(self, get: fn(&T) -> Option<&U>) -> At<R, U> {
        let parent = self.get;
        At { parts: self.parts, opts: self.opts, get: Arc::new(move |r: &R| parent(r).and_then(get)) }
    }

    /// The dotted Parquet path.
    pub fn path(&self) -> String {
        self.parts.join(".")
    }
}

/// A field that is never null in the type: it has no `is_null`.
pub enum Required {}
/// A field that may be null (an `Option`, or inside an optional group).
pub enum Nullable {}

/// Whether a handle's field may be null: [`Required`] or [`Nullable`].
pub trait Nullability: 'static {
    /// `true` for [`Nullable`].
    const NULLABLE: bool;
}

impl Nullability for Required {
    const NULLABLE: bool = false;
}

impl Nullability for Nullable {
    const NULLABLE: bool = true;
}

/// The handle of a field of type `T` in records of `R`, whose operations
/// (see [`Predicate`](super::Predicate)) take a `T`. `N` is [`Required`] or
/// [`Nullable`]: only nullable fields have `is_null` and `is_not_null`.
pub struct Field<R, T, N = Required> {
    pub(crate) path: Arc<str>,
    /// The path's names, which may hold dots.
    pub(crate) parts: Arc<[String]>,
    /// The field's options, which its column is read with.
    pub(crate) opts: FieldOptions,
    pub(crate) get: Reach<R, T>,
    _nullability: PhantomData<fn() -> N>,
}

impl<R, T, N> Clone for Field<R, T, N> {
    fn clone(&self) -> Self {
        let (path, parts, opts, get) = (self.path.clone(), self.parts.clone(), self.opts, self.get.clone());
        Field { path, parts, opts, get, _nullability: PhantomData }
    }
}

impl<R, T, N> Field<R, T, N> {
    /// A handle for the field at `at`.
    pub fn new(at: At<R, T>) -> Self {
        let path = at.parts.join(".").into();
        Field { path, parts: at.parts.into(), opts: at.opts, get: Reach::Ref(at.get), _nullability: PhantomData }
    }

    /// A handle for the field at `at`, whose value `convert` makes a `T`
    /// (the owned form of a field that borrows).
    fn converted<U: ?Sized + 'static>(at: At<R, U>, convert: impl Fn(&U) -> T + Send + Sync + 'static) -> Self
    where
        R: 'static,
        T: 'static,
    {
        let (path, get) = (at.parts.join(".").into(), at.get);
        let get = Reach::Converted(Arc::new(move |r: &R| get(r).map(&convert)));
        Field { path, parts: at.parts.into(), opts: at.opts, get, _nullability: PhantomData }
    }

    /// The field's dotted Parquet path (the column it reads).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// `f` of the field's value in `record` (`None` where it, or an
    /// optional field on the way to it, is null): what a table writer
    /// computes a partition value from.
    ///
    /// ```
    /// use magnolify_parquet::ParquetType;
    ///
    /// #[derive(ParquetType)]
    /// struct Trip { id: u64, rider: Option<String> }
    ///
    /// let trip = Trip { id: 7, rider: None };
    /// assert_eq!(Trip::fields().id.with_value(&trip, |id| id.copied()), Some(7));
    /// assert_eq!(Trip::fields().rider.with_value(&trip, |rider| rider.is_none()), true);
    /// ```
    pub fn with_value<U>(&self, record: &R, f: impl FnOnce(Option<&T>) -> U) -> U {
        self.get.test(record, f)
    }
}

impl<R: 'static, N> Field<R, String, N> {
    /// The tag of an enum with data at `at`, compared as text: `symbol`
    /// names the variant of a value. For generated code.
    #[doc(hidden)]
    pub fn of_symbol<E: 'static>(at: At<R, E>, symbol: fn(&E) -> &'static str) -> Self {
        Field::converted(at, move |value: &E| symbol(value).to_owned())
    }
}

impl<R, T, N> std::fmt::Debug for Field<R, T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Field({})", self.path)
    }
}

/// The handle of a field that predicates cannot address: lists, maps,
/// fields read `with` a module, and types without a column order.
///
/// Its comparison methods exist only to fail to compile with a message
/// that says so (their argument must be [`Addressable`], which no type
/// is), where without them `stops.eq(..)` on a list field would find
/// `Iterator::eq` and complain that the handle is not an iterator.
#[derive(Clone, Copy, Debug)]
pub struct NotAddressable;

mod sealed {
    pub trait Sealed {}
}

/// What no value is: the bound of [`NotAddressable`]'s methods, so that a
/// predicate on a list, a map or a field read `with` a module does not
/// compile, saying why.
#[diagnostic::on_unimplemented(
    message = "this field is not addressable: predicates compare fields with a column of their own, not lists, maps \
               or fields read `with` a module",
    label = "compared with a field that is not addressable",
    note = "compare a field of a struct (or of an `Option` of one); the records read can still be filtered on \
            anything with `Iterator::filter`"
)]
pub trait Addressable: sealed::Sealed {
    /// Never called: no type implements the trait.
    fn unreachable(self) -> std::convert::Infallible;
}

/// What no record is: the bound of the `fields()` generated for records
/// with type or const parameters, so that calling it does not compile and
/// says why (where without it the method would just not exist).
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no field handles: `fields()` is generated only for records without type or const \
               parameters",
    label = "a record with type or const parameters",
    note = "filter on a record without parameters, or filter the records read with `Iterator::filter`"
)]
pub trait WithoutParameters: sealed::Sealed {
    /// Never called: no type implements the trait.
    fn unreachable() -> std::convert::Infallible;
}

/// The methods of [`Field`], on [`NotAddressable`]: none can be called.
macro_rules! not_addressable_methods {
    ($($method:ident),*) => {
        impl NotAddressable {
            $(
                #[doc = concat!("Does not compile: the field is not addressable (see `Field::", stringify!($method), "`).")]
                pub fn $method<V: Addressable>(&self, value: V) -> std::convert::Infallible {
                    value.unreachable()
                }
            )*

            /// Does not compile: the field is not addressable (see `Field::between`).
            pub fn between<V: Addressable>(&self, low: V, _high: V) -> std::convert::Infallible {
                low.unreachable()
            }

            // The bound names a lifetime of the method, so that it is
            // checked where the method is called (saying why), not here.
            /// Does not compile: the field is not addressable (see `Field::is_null`).
            pub fn is_null<'a>(&'a self) -> std::convert::Infallible
            where
                &'a Self: Addressable,
            {
                self.unreachable()
            }

            /// Does not compile: the field is not addressable (see `Field::is_not_null`).
            pub fn is_not_null<'a>(&'a self) -> std::convert::Infallible
            where
                &'a Self: Addressable,
            {
                self.unreachable()
            }
        }
    };
}

not_addressable_methods!(eq, ne, lt, le, gt, ge, is_in, starts_with);

/// The field handles of a type, for records of `R`: what
/// `#[derive(ParquetType)]` generates `fields()` from.
///
/// Every type that can be a field implements it: leaf types give a
/// [`Field`], derived structs give their fields' handles, `Option<T>` gives
/// `T`'s nullable handle, collections give [`NotAddressable`]. A field type
/// you implement the field traits for by hand implements it too, most
/// simply with [`not_addressable!`](crate::not_addressable).
pub trait FieldHandle<R: 'static>: 'static {
    /// The handle of a field of this type.
    type Handle;
    /// The handle of a field of this type that may be null.
    type OptionalHandle;
    /// The handle at `at`.
    fn handle(at: At<R, Self>) -> Self::Handle;
    /// The handle at `at`, where the value may be null.
    fn optional_handle(at: At<R, Self>) -> Self::OptionalHandle;
}

/// A type's handle for a field that is [`Required`] or [`Nullable`]: what
/// generated field handles are declared with.
#[doc(hidden)]
pub trait HandleAs<R: 'static, N> {
    type Out;
    fn make(at: At<R, Self>) -> Self::Out;
}

impl<R: 'static, T: FieldHandle<R>> HandleAs<R, Required> for T {
    type Out = T::Handle;
    fn make(at: At<R, Self>) -> Self::Out {
        T::handle(at)
    }
}

impl<R: 'static, T: FieldHandle<R>> HandleAs<R, Nullable> for T {
    type Out = T::OptionalHandle;
    fn make(at: At<R, Self>) -> Self::Out {
        T::optional_handle(at)
    }
}

/// Implements [`FieldHandle`] for types that predicates cannot address
/// (their handle is [`NotAddressable`]): for a field type whose traits you
/// implement by hand and that no predicate compares.
///
/// ```
/// struct Opaque(Vec<u8>);
/// magnolify_parquet::not_addressable!(Opaque);
/// ```
#[macro_export]
macro_rules! not_addressable {
    ($($t:ty),* $(,)?) => {$(
        impl<__R: 'static> $crate::filter::FieldHandle<__R> for $t {
            type Handle = $crate::filter::NotAddressable;
            type OptionalHandle = $crate::filter::NotAddressable;
            fn handle(_: $crate::filter::At<__R, Self>) -> $crate::filter::NotAddressable {
                $crate::filter::NotAddressable
            }
            fn optional_handle(_: $crate::filter::At<__R, Self>) -> $crate::filter::NotAddressable {
                $crate::filter::NotAddressable
            }
        }
    )*};
}

/// Leaf types: a [`Field`] of their own type.
macro_rules! leaf_handles {
    ($($t:ty),* $(,)?) => {$(
        impl<R: 'static> FieldHandle<R> for $t {
            type Handle = Field<R, $t, Required>;
            type OptionalHandle = Field<R, $t, Nullable>;
            fn handle(at: At<R, Self>) -> Self::Handle {
                Field::new(at)
            }
            fn optional_handle(at: At<R, Self>) -> Self::OptionalHandle {
                Field::new(at)
            }
        }
    )*};
}

leaf_handles!(
    bool,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    isize,
    usize,
    i128,
    u128,
    std::num::NonZero<i8>,
    std::num::NonZero<i16>,
    std::num::NonZero<i32>,
    std::num::NonZero<i64>,
    std::num::NonZero<isize>,
    std::num::NonZero<u8>,
    std::num::NonZero<u16>,
    std::num::NonZero<u32>,
    std::num::NonZero<u64>,
    std::num::NonZero<usize>,
    f32,
    f64,
    char,
    std::net::IpAddr,
    std::net::Ipv4Addr,
    std::net::Ipv6Addr,
    String,
    Box<str>,
    Arc<str>,
    Vec<u8>,
    Box<[u8]>,
    bytes::Bytes
);

impl<R: 'static, const N: usize> FieldHandle<R> for [u8; N] {
    type Handle = Field<R, [u8; N], Required>;
    type OptionalHandle = Field<R, [u8; N], Nullable>;
    fn handle(at: At<R, Self>) -> Self::Handle {
        Field::new(at)
    }
    fn optional_handle(at: At<R, Self>) -> Self::OptionalHandle {
        Field::new(at)
    }
}

/// Fields that borrow (in the handles of a record that borrows, which are
/// those of its `'static` form): compared as their owned form, which their
/// column reads as.
macro_rules! borrowed_handles {
    ($($t:ty => $owned:ty, $convert:expr;)*) => {$(
        impl<R: 'static> FieldHandle<R> for $t {
            type Handle = Field<R, $owned, Required>;
            type OptionalHandle = Field<R, $owned, Nullable>;
            fn handle(at: At<R, Self>) -> Self::Handle {
                Field::converted(at, $convert)
            }
            fn optional_handle(at: At<R, Self>) -> Self::OptionalHandle {
                Field::converted(at, $convert)
            }
        }
    )*};
}

borrowed_handles!(
    &'static str => String, |v: &&'static str| (*v).to_owned();
    std::borrow::Cow<'static, str> => String, |v: &std::borrow::Cow<'static, str>| v.clone().into_owned();
    &'static [u8] => Vec<u8>, |v: &&'static [u8]| v.to_vec();
    std::borrow::Cow<'static, [u8]> => Vec<u8>, |v: &std::borrow::Cow<'static, [u8]>| v.to_vec();
);

impl<R: 'static, T: FieldHandle<R>> FieldHandle<R> for Option<T> {
    type Handle = T::OptionalHandle;
    type OptionalHandle = T::OptionalHandle;
    fn handle(at: At<R, Self>) -> Self::Handle {
        T::optional_handle(at.map(Option::as_ref))
    }
    fn optional_handle(at: At<R, Self>) -> Self::OptionalHandle {
        T::optional_handle(at.map(Option::as_ref))
    }
}

/// Pointers: the handles of what they point to.
macro_rules! pointer_handles {
    ($($p:ident),*) => {$(
        impl<R: 'static, T: FieldHandle<R>> FieldHandle<R> for $p<T> {
            type Handle = T::Handle;
            type OptionalHandle = T::OptionalHandle;
            fn handle(at: At<R, Self>) -> Self::Handle {
                T::handle(at.map(|b| Some(&**b)))
            }
            fn optional_handle(at: At<R, Self>) -> Self::OptionalHandle {
                T::optional_handle(at.map(|b| Some(&**b)))
            }
        }
    )*};
}
pointer_handles!(Box, Arc);

/// Collections: not addressable (a predicate on a list would need "any" or
/// "all" semantics, which these handles do not have).
macro_rules! collection_handles {
    ($([$($generics:tt)*] $t:ty),* $(,)?) => {$(
        impl<R: 'static, $($generics)*> FieldHandle<R> for $t {
            type Handle = NotAddressable;
            type OptionalHandle = NotAddressable;
            fn handle(_: At<R, Self>) -> NotAddressable {
                NotAddressable
            }
            fn optional_handle(_: At<R, Self>) -> NotAddressable {
                NotAddressable
            }
        }
    )*};
}
collection_handles!(
    [T: crate::types::ListElement + 'static] Vec<T>,
    [K: 'static, V: 'static, S: 'static] HashMap<K, V, S>,
    [K: 'static, V: 'static] BTreeMap<K, V>,
    [T: 'static] std::collections::VecDeque<T>,
    [T: 'static] std::collections::BTreeSet<T>,
    [T: 'static, S: 'static] std::collections::HashSet<T, S>,
    [T: crate::types::ListElement + 'static, const N: usize] [T; N],
);
// A `Cow` of a list is a list.
collection_handles!([T: crate::types::ListElement + Clone + 'static] std::borrow::Cow<'static, [T]>);

/// A `Cow` of a value (not text or bytes, which borrow): the value's handles.
impl<R: 'static, T: FieldHandle<R> + Clone + 'static> FieldHandle<R> for std::borrow::Cow<'static, T> {
    type Handle = T::Handle;
    type OptionalHandle = T::OptionalHandle;
    fn handle(at: At<R, Self>) -> Self::Handle {
        T::handle(at.map(|v: &Self| Some(&**v)))
    }
    fn optional_handle(at: At<R, Self>) -> Self::OptionalHandle {
        T::optional_handle(at.map(|v: &Self| Some(&**v)))
    }
}

// A JSON document: the statistics of its text say nothing of its members.
#[cfg(feature = "json")]
collection_handles!([] serde_json::Value);

#[cfg(feature = "chrono")]
leaf_handles!(std::time::SystemTime);
#[cfg(feature = "chrono")]
leaf_handles!(chrono::NaiveDate, chrono::NaiveTime, chrono::NaiveDateTime, chrono::DateTime<chrono::Utc>);
#[cfg(feature = "uuid")]
leaf_handles!(uuid::Uuid);
#[cfg(feature = "half")]
leaf_handles!(half::f16);
#[cfg(feature = "decimal")]
leaf_handles!(rust_decimal::Decimal);
#[cfg(feature = "bigdecimal")]
leaf_handles!(bigdecimal::BigDecimal);
