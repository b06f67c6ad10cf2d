//! `NonZero<T>` of every integer type: the form of `T`; reading a 0 is an
//! error at its record.

use std::num::NonZero;

use parquet::basic::Repetition;
use parquet::schema::types::Type;

use super::ListElement;
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::{ParquetRead, ParquetSchema, ParquetWrite};
use crate::options::FieldOptions;
use crate::shred::{ColumnSink, WriteAt};

macro_rules! nonzero {
    ($($t:ty),*) => {$(
        impl ParquetSchema for NonZero<$t> {
            const LEAVES: usize = 1;
            type ReadPlan = <$t as ParquetSchema>::ReadPlan;

            fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
                <$t>::schema(name, repetition, opts)
            }
        }

        impl ParquetWrite for NonZero<$t> {
            #[inline]
            fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
                self.get().write(sink, at, opts)
            }
        }

        impl<'de> ParquetRead<'de> for NonZero<$t> {
            fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
                <$t>::resolve(node, opts, resolver)
            }

            #[inline]
            fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
                NonZero::new(<$t>::read(plan, src)?).ok_or_else(|| {
                    src.value_error(
                        plan.cursor,
                        concat!("0 cannot be a `NonZero<", stringify!($t), ">`: make the field `Option<NonZero<_>>` \
                                 and write None for none, or a plain `", stringify!($t), "`"),
                    )
                })
            }
        }

        impl ListElement for NonZero<$t> {}
    )*};
}

nonzero!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);
