//! The solved tables of a data folder: where `race solve` and `race table
//! import` put them, `race tables` listing them, and `race table export`
//! writing one as RoyalUr's `.rgu` file.

use std::path::{Path, PathBuf};

use royal_ur::Variant;
use serde_json::{Value, json};
use ur_solve::{RguError, Solution, Table, ValueType, Written};

use crate::cli::{TableAction, TableArgs, TableExportArgs, TableImportArgs, TablesArgs};
use crate::emit;
use crate::engine::table_refusal;
use crate::error::{Outcome, Refused};
use crate::output;

/// Where a table of `variant` goes: `out`, or the data folder's
/// `tables/` under the name the rules give it (the data folder and its
/// `tables/` made if missing, their owner's alone, so that `race serve`
/// takes the folder); checked before the work that fills it.
///
/// # Errors
///
/// As [`output::claim`] and [`output::claim_data_folder`].
pub fn table_destination(
    out: Option<&Path>,
    data: &Path,
    variant: &Variant,
    value_type: ValueType,
    force: bool,
) -> Result<PathBuf, Refused> {
    if let Some(out) = out {
        output::claim(out, force, "--out", "")?;
        return Ok(out.to_path_buf());
    }
    output::claim_data_folder(data, "--data")?;
    let folder = race_games::tables_folder(data);
    output::claim_data_folder(&folder, "--data")?;
    let path = folder.join(ur_solve::table_file_name(variant, value_type));
    output::claim(&path, force, "--data", "")?;
    Ok(path)
}

/// Writes a table whole to `path` ([`ur_solve::write_table`]), so that
/// the file named holds a whole table or what it held before.
///
/// # Errors
///
/// The table error, as a refusal of `input`.
pub fn write_table_file(
    solution: &Solution,
    value_type: ValueType,
    path: &Path,
    input: &str,
) -> Result<Written, Refused> {
    let _held = output::hold_writes();
    ur_solve::write_table(solution, value_type, path).map_err(|e| table_refusal(input, &e))
}

/// An `.rgu` refusal: exit 1 with its code.
fn rgu_refusal(input: &str, e: &RguError) -> Refused {
    Refused::new(input, e.code(), e.to_string())
}

/// What one file of a data folder's `tables/` is.
fn describe(path: &Path) -> Value {
    let file = path.display().to_string();
    let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    let head = std::fs::read(path)
        .ok()
        .map(|b| b.get(..3).map(<[u8]>::to_vec).unwrap_or_default());
    if head.as_deref() == Some(&ur_solve::RGU_MAGIC[..]) {
        return json!({
            "file": file,
            "format": "rgu",
            "bytes": bytes,
            "checksum": "none",
            "note": "a RoyalUr lookup table: race table import reads it",
        });
    }
    match Table::open(path) {
        Ok(table) => {
            let variant = *ur_solve::WinChances::variant(&table);
            json!({
                "file": file,
                "rules": variant.spelled_out(),
                "name": variant.preset(),
                "format": table.value_type().as_str(),
                "version": ur_solve::format_version(&variant, table.value_type()),
                "states": table.count(),
                "choices": table.choice_count(),
                "bytes": bytes,
                "checksum": "ok",
            })
        }
        Err(e) => json!({
            "file": file,
            "bytes": bytes,
            "checksum": if e.code() == "checksum" { "bad" } else { "unread" },
            "code": e.code(),
            "message": e.to_string(),
        }),
    }
}

/// `race tables [--data DIR]`.
pub fn tables_cmd(a: &TablesArgs) -> Outcome {
    let folder = race_games::tables_folder(&a.data);
    let files = race_games::table_files(&a.data).map_err(|e| {
        Refused::new(
            "--data",
            "file",
            format!("{}: {}", folder.display(), crate::error::io_words(&e)),
        )
    })?;
    let tables: Vec<Value> = files.iter().map(|p| describe(p)).collect();
    if a.json {
        let report = json!({
            "ok": true,
            "folder": folder.display().to_string(),
            "tables": tables,
        });
        return emit(&format!("{report}\n"));
    }
    if tables.is_empty() {
        return emit(&format!("no tables in {}\n", folder.display()));
    }
    let mut out = format!("tables in {}\n", folder.display());
    for t in &tables {
        let name = t["file"].as_str().unwrap_or("");
        let name = Path::new(name)
            .file_name()
            .map_or_else(|| name.to_owned(), |n| n.to_string_lossy().into_owned());
        let line = match (t["format"].as_str(), t["rules"].as_str()) {
            (Some("rgu"), _) => format!(
                "{name}  RoyalUr lookup table, {} bytes (race table import reads it)",
                t["bytes"]
            ),
            (Some(format), Some(rules)) => format!(
                "{name}  {rules}  {format} (version {}), {} states, {} bytes, checksum ok",
                t["version"], t["states"], t["bytes"]
            ),
            _ => format!(
                "{name}  {} bytes, not read: {} ({})",
                t["bytes"],
                t["message"].as_str().unwrap_or(""),
                t["code"].as_str().unwrap_or("")
            ),
        };
        out.push_str(&line);
        out.push('\n');
    }
    emit(&out)
}

/// `race table export|import`.
pub fn table_cmd(a: &TableArgs) -> Outcome {
    match &a.action {
        TableAction::Export(e) => export_cmd(e),
        TableAction::Import(i) => import_cmd(i),
    }
}

/// `race table export TABLE --format rgu --out FILE`.
fn export_cmd(a: &TableExportArgs) -> Outcome {
    let table = Table::open(&a.table).map_err(|e| table_refusal("TABLE", &e))?;
    output::claim(&a.out, a.force, "--out", "")?;
    let written = {
        let _held = output::hold_writes();
        ur_solve::export_rgu(&table, &a.out)
    };
    let written = written.map_err(|e| rgu_refusal("--out", &e))?;
    let rules = ur_solve::WinChances::variant(&table).spelled_out();
    let out = a.out.display().to_string();
    if a.json {
        let report = json!({
            "ok": true,
            "rules": rules,
            "format": "rgu",
            "file": out,
            "entries": written.entries,
            "maps": written.maps,
            "bytes": written.bytes,
        });
        return emit(&format!("{report}\n"));
    }
    emit(&format!(
        "rules          {rules}\n\
         wrote          {out} (RoyalUr lookup table, {} positions, {} key maps, {} bytes)\n",
        written.entries, written.maps, written.bytes
    ))
}

/// `race table import FILE [--data DIR | --out PATH]`.
fn import_cmd(a: &TableImportArgs) -> Outcome {
    let imported = ur_solve::import_rgu(&a.file).map_err(|e| rgu_refusal("FILE", &e))?;
    let variant = *ur_solve::WinChances::variant(&imported);
    let path = table_destination(a.out.as_deref(), &a.data, &variant, ValueType::P16, a.force)?;
    let input = if a.out.is_some() { "--out" } else { "--data" };
    let written = write_table_file(&imported, ValueType::P16, &path, input)?;
    let out = path.display().to_string();
    if a.json {
        let report = json!({
            "ok": true,
            "rules": variant.spelled_out(),
            "table": out,
            "states": written.states,
            "value_type": written.value_type.as_str(),
            "bytes": written.bytes,
        });
        return emit(&format!("{report}\n"));
    }
    emit(&format!(
        "rules          {}\n\
         table          {out} ({} states, {}, {} bytes)\n",
        variant.spelled_out(),
        written.states,
        written.value_type.as_str(),
        written.bytes
    ))
}
