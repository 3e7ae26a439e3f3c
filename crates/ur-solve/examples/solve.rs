//! Solves a rule set and prints the first mover's win chance, wall time,
//! CPU time and peak memory; optionally writes the table.
//!
//! ```text
//! cargo run --release -p ur-solve --example solve -- finkel [--pieces N]
//!     [--threads N] [--out PATH] [--values p16|f32|f64] [--compare-bots]
//! ```
//!
//! `--compare-bots` (with `--out` and `p16`) reads the table written back
//! and counts, over every state and roll with more than one move, where
//! the perfect bot from the table plays another move than from the f64
//! solve, and where the rounded values alone would (the table's choices).
//!
//! The rules are a name (`finkel`, `masters`) or the five fields spelled
//! out in one argument: `"route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=3"`.

use std::process::ExitCode;
use std::time::Instant;

use dice_core::Side;
use royal_ur::Variant;
use ur_solve::{
    Solution, SolveOptions, Stage, Table, ValueType, WinChances, best_move, move_values, solve,
    write_table,
};

/// User and system CPU seconds of this process (all threads), from
/// /proc/self/stat (clock ticks of 1/100 s).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// Peak resident memory in MiB, from /proc/self/status (VmHWM).
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut rules = "finkel".to_owned();
    let mut pieces = None;
    let mut out = None;
    let mut value_type = ValueType::F64;
    let mut compare = false;
    let mut options = SolveOptions::default();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--pieces" => pieces = Some(args.next().ok_or("--pieces wants a number")?.parse()?),
            "--threads" => {
                options.threads = args.next().ok_or("--threads wants a number")?.parse()?
            }
            "--tolerance" => {
                options.tolerance = args.next().ok_or("--tolerance wants a number")?.parse()?;
            }
            "--depth" => {
                options.policy_depth = args.next().ok_or("--depth wants a number")?.parse()?
            }
            "--list-mib" => {
                let mib: u64 = args.next().ok_or("--list-mib wants a number")?.parse()?;
                options.list_bytes = mib << 20;
            }
            "--out" => out = Some(args.next().ok_or("--out wants a path")?),
            "--f32" => value_type = ValueType::F32,
            "--values" => {
                let name = args.next().ok_or("--values wants p16, f32 or f64")?;
                value_type = ValueType::from_name(&name).ok_or("--values is p16, f32 or f64")?;
            }
            "--compare-bots" => compare = true,
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}").into()),
            _ => rules = arg,
        }
    }
    let mut variant = Variant::parse_lenient(&rules)?;
    if let Some(p) = pieces {
        variant = variant.with_pieces(p)?;
    }
    println!("rules: {} ({})", variant, variant.spelled_out());
    println!(
        "threads: {}, tolerance: {:e}, successor lists: {} MiB",
        options.threads,
        options.tolerance,
        options.list_bytes >> 20
    );
    let wall = Instant::now();
    let mut last = 0.0f64;
    let solution = solve(&variant, &options, |p| {
        let now = p.elapsed;
        if p.stage == Stage::Done
            || now - last >= 5.0
            || std::env::var_os("SOLVE_VERBOSE").is_some()
        {
            last = now;
            eprintln!(
                "[{now:7.1}s] {:?} pair {}/{} layer {:?} sweep {} change {:.3e} states {}/{}",
                p.stage, p.pairs_done, p.pairs, p.layer, p.sweep, p.change, p.states_done, p.states
            );
        }
    })?;
    let solved = wall.elapsed().as_secs_f64();
    let stats = solution.stats();
    println!("states (one side to move): {}", solution.index().len());
    println!("first mover wins: {:.10} %", 100.0 * solution.first_mover());
    println!(
        "Bellman sweeps: {} ({} state updates), policy sweeps: {} ({} state updates), most sweeps for one layer pair: {}",
        stats.sweeps,
        stats.updates,
        stats.policy_sweeps,
        stats.policy_updates,
        stats.max_pair_sweeps
    );
    println!("residual max |T(V) - V|: {:.3e}", stats.residual);
    println!(
        "sweeping: {:.1} s, residual checks: {:.1} s",
        stats.sweep_seconds, stats.residual_seconds
    );
    if let Some(path) = out {
        let t = Instant::now();
        let written = write_table(&solution, value_type, path.as_ref())?;
        println!(
            "wrote {path} in {:.1} s: {} bytes, {} values, {} choices, largest error {:.3e}",
            t.elapsed().as_secs_f64(),
            written.bytes,
            written.value_type.as_str(),
            written.choices,
            written.worst_error
        );
        if compare {
            let t = Instant::now();
            let table = Table::open(path.as_ref())?;
            let (choices, rounded_differs, differs) = compare_bots(&solution, &table)?;
            println!(
                "bots compared in {:.1} s: {choices} (state, roll)s with a choice; the rounded \
                 values alone choose another move in {rounded_differs}, the table's bot in {differs}",
                t.elapsed().as_secs_f64()
            );
        }
    }
    let cpu = cpu_seconds().unwrap_or(f64::NAN);
    println!(
        "wall: {:.1} s (solve {solved:.1} s), cpu: {cpu:.1} s ({:.2} core-minutes), peak memory: {:.0} MiB",
        wall.elapsed().as_secs_f64(),
        cpu / 60.0,
        peak_mib().unwrap_or(f64::NAN)
    );
    Ok(())
}

/// Over every state (not over) and roll with more than one move: how
/// many there are, how many the table's rounded values alone answer with
/// another move than the f64 values, and how many the table's bot does.
fn compare_bots(
    solution: &Solution,
    table: &Table,
) -> Result<(u64, u64, u64), Box<dyn std::error::Error>> {
    let index = solution.index();
    let mut rolls: Vec<u8> = index
        .variant()
        .chances()
        .iter()
        .map(|c| c.roll)
        .filter(|&r| r > 0)
        .collect();
    rolls.dedup();
    let (mut choices, mut rounded_differs, mut differs) = (0, 0, 0);
    for i in 0..index.len() {
        let Some(state) = index.unrank(i) else {
            continue;
        };
        if index.is_over(state) {
            continue;
        }
        let position = index.position(state, Side::Light);
        for &roll in &rolls {
            let values = move_values(table, &position, roll)?;
            if values.len() < 2 {
                continue;
            }
            choices += 1;
            let exact = best_move(solution, &position, roll)?.map(|m| m.mv);
            if best_move(table, &position, roll)?.map(|m| m.mv) != exact {
                differs += 1;
            }
            let mut rounded = None;
            for mv in &values {
                if rounded.is_none_or(|(_, v)| mv.win_chance > v) {
                    rounded = Some((mv.mv, mv.win_chance));
                }
            }
            if rounded.map(|(m, _)| m) != exact {
                rounded_differs += 1;
            }
        }
    }
    Ok((choices, rounded_differs, differs))
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
