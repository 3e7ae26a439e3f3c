//! `race solve` and `race analyse`: the Royal Game of Ur solved exactly
//! (the `ur-solve` crate) on the command line.

use std::io::IsTerminal;
use std::time::Instant;

use dice_core::Side;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use royal_ur::Ur;
use serde_json::{Map, Value, json};
use ur_solve::{GameAnalysis, Grade, Progress, SideTotals, SolveOptions, Stage, Table, ValueType};

use crate::cli::{AnalyseArgs, SolveArgs};
use crate::engine::{parse_variant, table_refusal};
use crate::error::{Outcome, Refused};
use crate::tables::{table_destination, write_table_file};
use crate::{emit, input, query};

/// The clock ticks a second of `/proc/self/stat` (USER_HZ, 100 on Linux).
const CLOCK_TICKS: f64 = 100.0;

/// User plus system CPU seconds of this process, from `/proc/self/stat`.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name may hold spaces; the fields after it start with
    // the state (field 3), so utime (14) and stime (15) are 11 and 12.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) as f64 / CLOCK_TICKS)
}

/// Peak resident memory in bytes, `VmHWM` of `/proc/self/status`.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(1), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} states  {msg}  eta {eta}")
    {
        bar.set_style(style);
    }
    bar
}

fn show(bar: &ProgressBar, p: &Progress) {
    bar.set_length(p.states.max(1));
    bar.set_position(p.states_done.min(p.states));
    let msg = match p.stage {
        Stage::Sweeping => format!(
            "layer {}/{} ({} of {} pairs) sweep {} change {:.1e}",
            p.layer.0, p.layer.1, p.pairs_done, p.pairs, p.sweep, p.change
        ),
        Stage::Residual => format!("residual {:.1e}", p.change),
        _ => "done".to_owned(),
    };
    bar.set_message(msg);
}

/// `race solve RULES [--out PATH | --data DIR]`.
pub fn solve_cmd(a: &SolveArgs) -> Outcome {
    let mut variant = parse_variant::<Ur>(Some(&a.rules), "RULES")?;
    if let Some(n) = a.pieces {
        variant = variant.with_pieces(n).map_err(|e| {
            Refused::new("--pieces", "rules", e.to_string())
                .why(e.code())
                .detail("pieces", n)
        })?;
    }
    let value_type = if a.f64 {
        ValueType::F64
    } else if a.f32 {
        ValueType::F32
    } else {
        ValueType::P16
    };
    let mut opts = SolveOptions::default();
    if let Some(t) = a.threads {
        opts.threads = usize::from(t);
    }
    if let Some(mib) = a.list_mib {
        opts.list_bytes = u64::from(mib) << 20;
    }
    let path = table_destination(a.out.as_deref(), &a.data, &variant, value_type, a.force)?;
    let started = Instant::now();
    let bar = progress_bar();
    let solved = ur_solve::solve(&variant, &opts, |p| show(&bar, p));
    bar.finish_and_clear();
    let sol = solved.map_err(|e| Refused::new("solve", e.code(), e.to_string()))?;
    let out = path.display().to_string();
    let input = if a.out.is_some() { "--out" } else { "--data" };
    let written = write_table_file(&sol, value_type, &path, input)?;
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds();
    let peak = peak_memory();
    let stats = sol.stats();
    let first = sol.first_mover();
    if a.json {
        let report = json!({
            "ok": true,
            "rules": variant.spelled_out(),
            "first_mover": first,
            "sweeps": stats.sweeps,
            "policy_sweeps": stats.policy_sweeps,
            "residual": stats.residual,
            "wall_seconds": wall,
            "cpu_seconds": cpu,
            "peak_memory_bytes": peak,
            "states": sol.values().len(),
            "value_type": value_type.as_str(),
            "table": out,
            "table_bytes": written.bytes,
            "choices": written.choices,
            "worst_error": written.worst_error,
        });
        return emit(&format!("{report}\n"));
    }
    let cpu = cpu.map_or_else(|| "unknown".to_owned(), |s| format!("{s:.2} s"));
    let peak = peak.map_or_else(
        || "unknown".to_owned(),
        |b| format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0)),
    );
    emit(&format!(
        "rules          {}\n\
         first mover    {:.10} % to win ({:.12})\n\
         sweeps         {} ({} policy sweeps)\n\
         residual       {:.3e}\n\
         wall time      {wall:.2} s\n\
         cpu time       {cpu}\n\
         peak memory    {peak}\n\
         table          {out} ({} states, {}, {} bytes, {} choices, largest error {:.2e})\n",
        variant.spelled_out(),
        first * 100.0,
        first,
        stats.sweeps,
        stats.policy_sweeps,
        stats.residual,
        sol.values().len(),
        value_type.as_str(),
        written.bytes,
        written.choices,
        written.worst_error,
    ))
}

/// `race analyse RECORD --table PATH`.
pub fn analyse_cmd(a: &AnalyseArgs) -> Outcome {
    let (name, text) = input::read_text(&a.file)?;
    let kind = crate::cmd::recognise(&text, &name)?;
    if kind != race_games::Kind::Ur {
        return Err(Refused::new(
            name,
            "game",
            format!("this is a {kind} record; only Royal Game of Ur records can be analysed"),
        )
        .into());
    }
    let game = query::replay::<Ur>(&name, &text, None)?;
    let table =
        Table::open_for(&a.table, game.variant()).map_err(|e| table_refusal("--table", &e))?;
    let report = ur_solve::analyse_game(&table, &game)
        .map_err(|e| Refused::new(name.clone(), e.code(), e.to_string()))?;
    if a.json {
        let value = serde_json::to_value(&report).map_err(|e| {
            Refused::new(
                name.clone(),
                "json",
                format!("the report cannot be written: {e}"),
            )
        })?;
        // Each turn by the record's number for it as well as its ply (the
        // turn line `N.` holds ply N - 1), as the text shows it.
        let turns: Vec<Value> = value["turns"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| {
                let mut turn = Map::new();
                turn.insert("turn".to_owned(), json!(t["ply"].as_u64().map(|p| p + 1)));
                if let Some(fields) = t.as_object() {
                    turn.extend(fields.clone());
                }
                Value::Object(turn)
            })
            .collect();
        let value = json!({
            "ok": true,
            "rules": game.variant().spelled_out(),
            "turns": turns,
            "light": value["light"],
            "dark": value["dark"],
            "key_moments": value["key_moments"],
        });
        return emit(&format!("{value}\n"));
    }
    emit(&analysis_text(&report, &game.variant().spelled_out()))
}

fn pct(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

fn pp(x: f64) -> String {
    format!("{:+.2}", x * 100.0)
}

fn analysis_text(report: &GameAnalysis, rules: &str) -> String {
    let mut out = format!(
        "royal-ur under {rules}; turns numbered as the record numbers them (turn N is ply N-1); \
         chances are the mover's to win, in %; lost and luck in points\n"
    );
    out.push_str(&format!(
        "{:>4}  {:<5} {:>4}  {:<9} {:>7} {:>7}  {:<9} {:>6} {:<10} {:>6}\n",
        "turn", "side", "roll", "played", "before", "after", "best", "lost", "grade", "luck"
    ));
    let word = |m: Option<royal_ur::Move>| m.map_or_else(|| "-".to_owned(), |m| m.to_string());
    for t in &report.turns {
        out.push_str(&format!(
            "{:>4}  {:<5} {:>4}  {:<9} {:>7} {:>7}  {:<9} {:>6} {:<10} {:>6}\n",
            t.ply + 1,
            t.side.to_string(),
            t.roll,
            word(t.mv),
            pct(t.before),
            pct(t.after),
            word(t.best),
            pp(t.lost),
            t.grade.map_or("-", Grade::word),
            pp(t.luck),
        ));
    }
    let line = |side: Side, s: &SideTotals| {
        let accuracy = match (s.accuracy, s.mean_lost) {
            (Some(a), Some(m)) => {
                format!("accuracy {a:.2} ({:.2} points lost a choice)", m * 100.0)
            }
            _ => "accuracy - (no choice)".to_owned(),
        };
        let grades = Grade::ALL
            .map(|g| format!("{} {}", s.grades.of(g), g.word()))
            .join(", ");
        format!(
            "{:<5}  {} turns, {} with a choice, {} mistakes, {} points lost, luck {} points\n\
             {:<5}  {accuracy}; {grades}; result {}, luck-adjusted {}\n",
            side.to_string(),
            s.turns,
            s.choices,
            s.mistakes,
            pp(s.lost),
            pp(s.luck),
            "",
            pct(s.result),
            pct(s.luck_adjusted),
        )
    };
    out.push_str(&line(Side::Light, &report.light));
    out.push_str(&line(Side::Dark, &report.dark));
    let key: Vec<String> = report
        .key_moments
        .iter()
        .map(|&ply| (ply + 1).to_string())
        .collect();
    out.push_str(&format!(
        "key moments (largest swings first): turns {}\n",
        if key.is_empty() {
            "-".to_owned()
        } else {
            key.join(", ")
        }
    ));
    out
}
