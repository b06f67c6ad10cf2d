//! `codegen`: `#[derive(ParquetType)]` structs that read a Parquet file with
//! magnolify-parquet.
//!
//! Two steps, so that several schema languages feed the same renderer: a
//! front-end (a Parquet schema, or an Avro schema) builds a [`Model`]
//! (structs, enums, fields, Rust types, attributes), then
//! [`render_model`] writes it as rustfmt-clean source.

mod common;
mod from_avro;
mod from_parquet;
pub mod model;
mod names;
mod render;

use std::collections::BTreeSet;

use magnolify_parquet::engines::{self, Engine, Severity};
use magnolify_parquet::ListLayout;
use parquet::schema::types::Type;

pub use model::Model;

/// Why no code can be generated for a schema.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CodegenError {
    /// The schema root is a primitive column, not a message (a group).
    #[error("the schema root is not a group")]
    NotAMessage,
    /// The message has no fields.
    #[error("the schema has no columns: there is nothing to generate")]
    NoColumns,
    /// No column can be read by any magnolify-parquet type.
    #[error("no column can be read with magnolify-parquet: {0}")]
    NothingReadable(String),
    /// The Avro schema is not a record.
    #[error("the Avro schema is not a record: only records are written as Parquet files")]
    NotARecord,
    /// The Avro schema has no Parquet form (recursion, an empty record, an
    /// unknown named type).
    #[error("{0}")]
    Avro(String),
}

/// What the generated file says about where it comes from.
#[derive(Clone, Debug, Default)]
pub struct CodegenOptions {
    /// The root struct's name; by default the message name in UpperCamelCase.
    pub root_name: Option<String>,
    /// The file the schema was read from, for the header.
    pub source: String,
    /// The command that generated the code, for the header.
    pub command: String,
    /// Engines whose findings (what `check` prints) are noted on the fields
    /// they concern, with the columns an engine cannot read counted in the
    /// header. Parquet schemas only.
    pub engines: Vec<Engine>,
}

/// Builds the model of a Parquet schema `message`: one struct per group,
/// the record first; each field notes what `engines` cannot read, or read
/// differently, in it.
pub fn model_from_parquet(message: &Type, root_name: Option<&str>, engines: &[Engine]) -> Result<Model, CodegenError> {
    from_parquet::model(message, root_name, engines)
}

/// Builds the model of the Avro record `schema`, arrays in list layout
/// `layout` (parquet-avro's default is [`ListLayout::TwoLevel`]).
pub fn model_from_avro(
    schema: &apache_avro::Schema,
    layout: ListLayout,
    root_name: Option<&str>,
) -> Result<Model, CodegenError> {
    from_avro::model(schema, layout, root_name)
}

/// Where a model came from, for the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A Parquet file's schema.
    Parquet,
    /// An Avro schema.
    Avro,
}

/// Renders a model as Rust source with a header naming its source.
pub fn render_model(model: &Model, opts: &CodegenOptions, origin: Origin) -> String {
    render::render(model, &header(model, opts, origin))
}

/// Rust source with `#[derive(ParquetType)]` structs that read files of the
/// Parquet schema `message` with magnolify-parquet.
pub fn generate(message: &Type, opts: &CodegenOptions) -> Result<String, CodegenError> {
    let model = model_from_parquet(message, opts.root_name.as_deref(), &opts.engines)?;
    let mut header = header(&model, opts, Origin::Parquet);
    for &engine in &opts.engines {
        let findings = engines::check(message, engine);
        let unreadable = findings.iter().filter(|f| f.severity == Severity::Unreadable).count();
        let different = findings.len() - unreadable;
        header.push(match (unreadable, different) {
            (0, 0) => format!("{engine}: every column reads as the schema says."),
            (0, _) => format!("{engine}: {different} read differently, noted on the fields."),
            _ => format!(
                "{engine}: {unreadable} unreadable, {different} read differently, noted on the fields \
                 (`WriterBuilder::readable_by(Engine::{engine:?})` refuses the unreadable when writing)."
            ),
        });
    }
    Ok(render::render(&model, &header))
}

/// Rust source with `#[derive(ParquetType)]` types that read the Parquet
/// files written from records of the Avro schema `schema` (by
/// `avro2parquet`, parquet-avro, or `avro-baseline`), lists in `layout`.
pub fn generate_from_avro(
    schema: &apache_avro::Schema,
    layout: ListLayout,
    opts: &CodegenOptions,
) -> Result<String, CodegenError> {
    let model = model_from_avro(schema, layout, opts.root_name.as_deref())?;
    Ok(render_model(&model, opts, Origin::Avro))
}

/// The header comment: source, command, and the crates and features the
/// generated types need.
fn header(model: &Model, opts: &CodegenOptions, origin: Origin) -> Vec<String> {
    let mut crates = BTreeSet::new();
    let mut features = BTreeSet::new();
    for s in &model.structs {
        for item in &s.items {
            if let model::Item::Field(f) = item {
                if f.attrs.skip {
                    continue;
                }
                for scalar in f.ty.scalars() {
                    if let Some((krate, feature)) = scalar.dependency() {
                        crates.insert(krate);
                        features.insert(feature);
                    }
                }
            }
        }
    }
    let source = names::comment_text(&opts.source);
    let mut lines = vec![format!("Generated by `{}`", names::comment_text(&opts.command))];
    match origin {
        Origin::Parquet => {
            lines.push(format!("from the schema of `{source}`."));
            lines.push("Reads the file with magnolify-parquet (`ParquetReader::<T, _>::new(file)`).".to_owned());
        }
        Origin::Avro => {
            lines.push(format!("from the Avro schema `{source}`."));
            lines.push(
                "Reads the Parquet files written from its records (by `magnolify-parquet avro2parquet`".to_owned(),
            );
            lines.push("or parquet-avro) with magnolify-parquet (`ParquetReader::<T, _>::new(file)`).".to_owned());
        }
    }
    if !crates.is_empty() {
        let list = |set: &BTreeSet<&str>| set.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ");
        lines.push(format!("Needs the crates {}; magnolify-parquet features {}.", list(&crates), list(&features)));
    }
    lines
}

/// Runs `rustfmt --check` at rustfmt's defaults (an empty config file in
/// `dir` pins them; edition 2021) on `files`; `Err` holds its output.
/// For the tests of generated code.
#[doc(hidden)]
pub fn rustfmt_check(dir: &std::path::Path, files: &[std::path::PathBuf]) -> Result<(), String> {
    let config = dir.join("rustfmt.toml");
    std::fs::write(&config, "").map_err(|e| format!("writing {}: {e}", config.display()))?;
    let out = std::process::Command::new("rustfmt")
        .args(["--edition", "2021", "--check", "--config-path"])
        .arg(&config)
        .args(files)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("running rustfmt: {e}"))?;
    match out.status.success() {
        true => Ok(()),
        false => Err(format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))),
    }
}

#[cfg(test)]
mod avro_tests;
#[cfg(test)]
mod tests;
