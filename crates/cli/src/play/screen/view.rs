//! The screen's state drawn: the board, the turn, the plies, the message,
//! the input line and the keys, and the boxes over them; and the wrapping
//! of text to the room there is.

use race_games::RaceGame;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style as Look};
use ratatui::symbols::border;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph, Wrap};

use super::{Ask, Overlay, Pop, Ui};
use crate::play::{COMMANDS, Mode, Mover, Said};
use crate::render::{self, look};
use crate::style::Paint;

/// The columns a panel's frame and padding take.
const FRAME: u16 = 4;

/// The columns the turn's panel needs beside the board.
const TURN_W: u16 = 40;

/// The keys, for `?`: every key the screen answers.
const KEYS: &str = "\
playing
  up/down, tab      pick a move from the list (shift-tab: back)
  enter             play the move picked, or what was typed
  type              a move (a2-d2, 12-15), its number, or a command:
COMMANDS
  backspace         delete the last letter typed
  ctrl-w            delete the last word typed
  ctrl-u, esc       clear what was typed
  q                 when the game is over: leave
watching, and stepping through a finished game
  space             pause and go on
  right or n        one ply (while paused)
  + and -           faster and slower (= and _ too)
  q                 leave (asks first while the game is on)
  q, esc            stepping through: back to the end of the game
anywhere
  ?                 these keys
  page up/down      earlier and later plies in the plies panel (end: the last)
  ctrl-d            leave (asks first while the game is on, saying where its record is)
  ctrl-z            suspend, as a terminal program does (fg goes on)
  ctrl-c            leave at once (with --record the record is already written)
  y, n              answer a question (a new game? leave?)
in a box (these keys, the plies, the route)
  up/down, page up/down, home/end   scroll it
  any other key     close it

Keys typed before a new roll is shown are ignored.";

/// Borders in plain ASCII, for `--ascii`.
const ASCII_BORDER: border::Set<'static> = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

impl<G: RaceGame> Ui<G> {
    fn paint(&self, paint: Paint) -> Look {
        look(paint, &self.colour)
    }

    /// The Unicode text, or the ASCII one under `--ascii`.
    fn pick<'a>(&self, unicode: &'a str, ascii: &'a str) -> &'a str {
        self.colour.pick(unicode, ascii)
    }

    /// What stands between the parts of the first line and the keys line.
    fn sep(&self) -> &'static str {
        self.pick(" · ", " | ")
    }

    /// A panel: a frame with a title and a column of room inside each side.
    fn panel(&self, title: &str) -> Block<'static> {
        let block = Block::bordered()
            .title(title.to_owned())
            .padding(Padding::horizontal(1));
        if self.colour.unicode {
            block
        } else {
            block.border_set(ASCII_BORDER)
        }
    }

    /// The whole screen.
    pub(super) fn draw(&self, f: &mut Frame) {
        let area = f.area();
        let message_lines = self.message_lines(usize::from(area.width));
        let [head, body, message, input, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(0),
            Constraint::Length(len(message_lines.len())),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(area);
        let game = &self.s.game;
        let board = |width: u16| {
            render::board_lines(
                game.variant(),
                game.position(),
                game.log(),
                &self.colour,
                width.saturating_sub(FRAME),
            )
        };
        // Beside the board, the turn needs TURN_W columns; else it goes below.
        let beside = board(area.width.saturating_sub(TURN_W));
        let stacked = beside.is_none();
        let Some(board) = beside.or_else(|| board(area.width)) else {
            return self.too_small(f, area);
        };
        let board_w = len(board.iter().map(Line::width).max().unwrap_or(0)) + FRAME;
        let board_h = len(board.len()) + 2;
        let turn_w = if stacked {
            area.width
        } else {
            area.width.saturating_sub(board_w)
        };
        let turn_lines = self.turn_lines(usize::from(turn_w.saturating_sub(FRAME)));
        let turn_h = len(turn_lines.len()).max(4) + 2;
        let needed = if stacked {
            board_h + turn_h + 3
        } else {
            board_h.max(turn_h) + 3
        };
        if body.height < needed {
            return self.too_small(f, area);
        }
        let (board_area, turn_area, plies_area) = if stacked {
            let [b, t, p] = Layout::vertical([
                Constraint::Length(board_h),
                Constraint::Length(turn_h),
                Constraint::Min(3),
            ])
            .areas(body);
            (b, t, p)
        } else {
            let [top, p] =
                Layout::vertical([Constraint::Length(board_h.max(turn_h)), Constraint::Min(3)])
                    .areas(body);
            let [b, t] =
                Layout::horizontal([Constraint::Length(board_w), Constraint::Min(0)]).areas(top);
            (b, t, p)
        };
        f.render_widget(Paragraph::new(self.head_line(area.width)), head);
        f.render_widget(
            Paragraph::new(board).block(self.panel(" board ")),
            board_area,
        );
        f.render_widget(
            Paragraph::new(turn_lines).block(self.panel(&self.turn_title())),
            turn_area,
        );
        self.draw_plies(f, plies_area);
        f.render_widget(Paragraph::new(message_lines), message);
        self.draw_input(f, input);
        let [long, short] = self.keys_line();
        let fits = Span::raw(long.as_str()).width() <= usize::from(area.width);
        f.render_widget(
            Paragraph::new(Line::styled(
                if fits { long } else { short },
                self.paint(Paint::Dim),
            )),
            keys,
        );
        if let Some(overlay) = &self.overlay {
            self.draw_overlay(f, area, overlay);
        }
    }

    /// A box of text over the middle of the screen, as many lines as fit
    /// from the overlay's first, its lines wrapped at spaces (not cut) on
    /// a screen narrower than they are.
    fn draw_overlay(&self, f: &mut Frame, area: Rect, overlay: &Overlay) {
        // The frame and a blank column take two columns on each side.
        let room = usize::from(area.width.saturating_sub(4)).max(1);
        let (title, text) = match overlay.pop {
            Pop::Keys => ("keys", keys_text()),
            Pop::Plies => ("plies", self.s.list_within(room)),
            Pop::Route => ("route", self.s.route()),
        };
        let lines: Vec<String> = text
            .lines()
            .flat_map(|l| wrap(l, room, hanging_indent(l)))
            .collect();
        let rows = usize::from(area.height.saturating_sub(2)).max(1);
        let last = lines.len().saturating_sub(rows);
        let top = overlay.top.min(last);
        overlay.fit.set((last, rows));
        let bottom = if last == 0 {
            " any key closes ".to_owned()
        } else {
            format!(
                " {}-{} of {}: {} scroll, any other key closes ",
                top + 1,
                (top + rows).min(lines.len()),
                lines.len(),
                self.pick("↑↓ pgup pgdn", "up down pgup pgdn"),
            )
        };
        let shown: Vec<Line> = lines
            .iter()
            .skip(top)
            .take(rows)
            .map(|l| Line::raw(l.clone()))
            .collect();
        // As wide as the widest line, wherever it is scrolled to.
        let widest = lines.iter().map(|l| Span::raw(l.as_str()).width()).max();
        let width = (widest.unwrap_or(0) + 4).max(Span::raw(bottom.as_str()).width() + 2);
        let rect = area.centered(
            Constraint::Length(len(width).min(area.width)),
            Constraint::Length((len(shown.len()) + 2).min(area.height)),
        );
        let mut block = Block::bordered()
            .title(format!(" {title} "))
            .title_bottom(bottom);
        if !self.colour.unicode {
            block = block.border_set(ASCII_BORDER);
        }
        f.render_widget(Clear, rect);
        f.render_widget(Paragraph::new(shown).block(block), rect);
    }

    /// What a terminal too small for the board gets instead: what it
    /// needs, in a few words.
    fn too_small(&self, f: &mut Frame, area: Rect) {
        let (width, lines) = render::narrow_size::<G>(self.s.game.variant());
        let (width, lines) = (len(width) + FRAME, len(lines) + 2);
        let text = format!(
            "too small for the board: it needs {}x{} (this is {}x{}); ctrl-c leaves",
            width,
            lines + 6 + 3 + 4,
            area.width,
            area.height
        );
        f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
    }

    /// The game, who plays, the ply and the record; shorter when narrow.
    fn head_line(&self, width: u16) -> Line<'static> {
        let sep = self.sep();
        let mut text = format!("{}{sep}ply {}", self.s.title(), self.s.game.ply());
        if let Some(file) = &self.s.record {
            text.push_str(&format!("{sep}record {}", file.path().display()));
        }
        if self.review.is_some() {
            text.push_str(&format!("{sep}replaying the record"));
        }
        if Span::raw(text.as_str()).width() > usize::from(width) {
            text = format!(
                "{} {}{sep}ply {}",
                G::KIND,
                self.s.game.variant(),
                self.s.game.ply()
            );
        }
        Line::styled(text, self.paint(Paint::Bold))
    }

    fn turn_title(&self) -> String {
        match self.s.to_move() {
            None => " the game is over ".to_owned(),
            Some((side, Mover::Bot)) if self.review.is_none() => {
                format!(" {side} to move (the bot) ")
            }
            Some((side, _)) => format!(" {side} to move "),
        }
    }

    /// The throw, and what comes of it: the moves to pick from, the bot at
    /// work, or the result; in lines of at most `width` columns.
    fn turn_lines(&self, width: usize) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        let add = |lines: &mut Vec<Line<'static>>, text: &str, indent: usize, look: Look| {
            lines.extend(
                wrap(text, width, indent)
                    .into_iter()
                    .map(|part| Line::styled(part, look)),
            );
        };
        let Some((_, mover)) = self.s.to_move() else {
            let result = self.s.result().unwrap_or_default();
            add(&mut lines, &result, 0, self.paint(Paint::Bold));
            if self.review.is_some() {
                add(
                    &mut lines,
                    "the end of the record: q goes back",
                    0,
                    Look::default(),
                );
            } else if self.s.resumed == Some(self.s.game.ply()) {
                add(
                    &mut lines,
                    "this record is of a finished game, kept as it is: type replay to step \
                     through it; undo goes on from an earlier ply in a new file",
                    0,
                    Look::default(),
                );
            }
            return lines;
        };
        if let Some(throw) = self.s.throw() {
            lines.push(Line::from(vec![
                Span::raw(throw),
                Span::styled(
                    format!("   {}", render::dice_key::<G>(&self.s.opts.style)),
                    self.paint(Paint::Dim),
                ),
            ]));
        }
        if mover == Mover::Person && self.review.is_none() {
            for (i, choice) in self.s.choices().iter().enumerate() {
                let picked = i == self.pick;
                let mark = if picked { self.pick("›", ">") } else { " " };
                let text = format!("{mark} {:>2}. {choice}", i + 1);
                let look = if picked {
                    self.paint(Paint::Mark).add_modifier(Modifier::BOLD)
                } else {
                    Look::default()
                };
                add(&mut lines, &text, 6, look);
            }
            return lines;
        }
        let doing = if self.paused {
            "paused: space goes on, n plays one ply"
        } else if self.review.is_some() {
            "replaying the record"
        } else if self.thinking {
            self.pick("the bot is thinking…", "the bot is thinking...")
        } else {
            "the bot plays next"
        };
        add(&mut lines, doing, 0, self.paint(Paint::Dim));
        lines
    }

    /// The opening and the plies, newest last, as many as fit, ending
    /// [`Ui::back`] plies before the newest; each side's last turn (every
    /// ply of it) in bold.
    fn draw_plies(&self, f: &mut Frame, area: Rect) {
        let width = usize::from(area.width.saturating_sub(FRAME)).max(10);
        let rows = usize::from(area.height.saturating_sub(2));
        self.panel_rows.set(rows);
        let log = self.s.game.log();
        let last = render::last_turns(log);
        let end = log.len().saturating_sub(self.back);
        let mut lines: Vec<Line> = Vec::new();
        for i in (0..end).rev() {
            if lines.len() >= rows {
                break;
            }
            let Some(text) = self.s.narrate(i) else {
                continue;
            };
            let bold = last.iter().any(|e| e.ply == log[i].ply);
            let style = if bold {
                self.paint(Paint::Bold)
            } else {
                Look::default()
            };
            for part in wrap(&text, width, 6).into_iter().rev() {
                lines.push(Line::styled(part, style));
            }
        }
        if lines.len() < rows {
            for text in self.s.opening().into_iter().rev() {
                for part in wrap(&text, width, 2).into_iter().rev() {
                    lines.push(Line::styled(part, self.paint(Paint::Dim)));
                }
            }
        }
        let skip = lines.len().saturating_sub(rows);
        lines.reverse();
        let lines: Vec<Line> = lines.into_iter().skip(skip).collect();
        let title = if end < log.len() {
            format!(" plies to {end} of {} (page down: later) ", log.len())
        } else {
            " last plies ".to_owned()
        };
        f.render_widget(Paragraph::new(lines).block(self.panel(&title)), area);
    }

    /// The notice, or what the last command said, in lines of at most
    /// `width` columns (one, empty, when there is nothing to say).
    fn message_lines(&self, width: usize) -> Vec<Line<'static>> {
        let (text, look) = match (&self.notice, &self.said) {
            (Some(notice), _) => (notice.as_str(), self.paint(Paint::Warn)),
            (None, Some(Said::Note(text))) => (text.as_str(), Look::default()),
            (None, Some(Said::Warn(text))) => (text.as_str(), self.paint(Paint::Warn)),
            (None, None) => ("", Look::default()),
        };
        wrap(text, width, 2)
            .into_iter()
            .map(|part| Line::styled(part, look))
            .collect()
    }

    fn draw_input(&self, f: &mut Frame, area: Rect) {
        if let Some(ask) = self.asking {
            let text = match ask {
                Ask::New => "the game is not over: start a new one? (y/n)",
                Ask::Leave => "leave the game? (y/n)",
            };
            f.render_widget(
                Paragraph::new(Line::styled(text, self.paint(Paint::Bold))),
                area,
            );
            return;
        }
        if self.review.is_some() {
            return;
        }
        let prompt = match self.s.to_move() {
            Some((side, Mover::Person)) => format!("{side}> "),
            None => "> ".to_owned(),
            Some((_, Mover::Bot)) => return,
        };
        let hint = if !self.typed.is_empty() {
            Span::raw(self.typed.clone())
        } else if self.s.game.is_over() {
            Span::styled("new, undo, save FILE, replay, or q", self.paint(Paint::Dim))
        } else {
            Span::styled(
                "enter plays the move picked, or type",
                self.paint(Paint::Dim),
            )
        };
        let at = area.x + len(prompt.chars().count() + self.typed.chars().count());
        f.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(prompt, self.paint(Paint::Bold)),
                hint,
            ])),
            area,
        );
        f.set_cursor_position((at.min(area.right().saturating_sub(1)), area.y));
    }

    /// The keys that work now, in full and short.
    fn keys_line(&self) -> [String; 2] {
        let sep = self.sep();
        let join = |parts: &[&str]| parts.join(sep);
        let pace = format!("pace {} ms", self.pace.as_millis());
        let paused = if self.paused {
            format!("{sep}paused")
        } else {
            String::new()
        };
        let step = self.pick("→ or n step", "right or n step");
        let watch = |leave: &str| {
            [
                format!(
                    "{}{paused}",
                    join(&[
                        "space pause",
                        step,
                        "+ faster",
                        "- slower",
                        leave,
                        "? keys",
                        &pace
                    ])
                ),
                format!("{}{paused}", join(&["space", "n", "+ -", leave, "?"])),
            ]
        };
        if self.review.is_some() {
            return watch("q back");
        }
        let pick = self.pick("↑↓ pick", "up/down pick");
        let pick_short = self.pick("↑↓ enter", "up/down enter");
        match self.s.to_move() {
            Some((_, Mover::Bot)) if self.s.opts.mode == Mode::Watch => watch("q leave"),
            Some((_, Mover::Bot)) => [
                join(&[
                    "the bot is playing; keys typed now are ignored",
                    "ctrl-c leaves",
                ]),
                join(&["the bot plays", "ctrl-c leaves"]),
            ],
            Some((_, Mover::Person)) => [
                join(&[
                    pick,
                    "enter play",
                    "type a move or a command",
                    "? keys",
                    "ctrl-d leave",
                ]),
                join(&[pick_short, "? keys", "ctrl-d leave"]),
            ],
            None => [
                join(&["q leave", "? keys", "ctrl-c leave"]),
                join(&["q leave", "? keys"]),
            ],
        }
    }
}

fn keys_text() -> String {
    KEYS.replace("COMMANDS\n", COMMANDS)
}

/// A count as a terminal length.
fn len(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// The indent of a wrapped line's continuation: under the description of
/// a `  key    what it does` line (two spaces or more between them), else 4.
fn hanging_indent(line: &str) -> usize {
    let Some(key) = line.strip_prefix("  ") else {
        return 4;
    };
    match key.trim_start().find("  ") {
        Some(gap) => {
            let from = line.len() - key.trim_start().len() + gap;
            let rest = &line[from..];
            from + (rest.len() - rest.trim_start().len())
        }
        None => 4,
    }
}

/// Text cut into lines of at most `width` columns at spaces (a longer word
/// stands alone), its spacing kept, the lines after the first indented by
/// `indent`; text that fits is left as it is.
fn wrap(text: &str, width: usize, indent: usize) -> Vec<String> {
    let columns = |t: &str| Span::raw(t).width();
    if columns(text) <= width {
        return vec![text.to_owned()];
    }
    let lead = " ".repeat(indent);
    let mut lines = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let first = lines.is_empty();
        let room = if first {
            width
        } else {
            width.saturating_sub(indent).max(1)
        };
        let cut = if columns(rest) <= room {
            rest.len()
        } else {
            // The last space within the room that follows a word, else the
            // first space after it (a longer word stands alone).
            let spaces = rest
                .char_indices()
                .filter(|&(at, c)| c == ' ' && !rest[..at].trim().is_empty());
            let mut within = None;
            let mut beyond = None;
            for (at, _) in spaces {
                if columns(&rest[..at]) <= room {
                    within = Some(at);
                } else {
                    beyond = Some(at);
                    break;
                }
            }
            within.or(beyond).unwrap_or(rest.len())
        };
        let part = rest[..cut].trim_end();
        lines.push(if first {
            part.to_owned()
        } else {
            format!("{lead}{part}")
        });
        rest = rest[cut..].trim_start();
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_the_spacing_and_hangs_under_the_description() {
        let line = "  level N           change the bot's level (1 to 99, top)";
        assert_eq!(hanging_indent(line), 20);
        assert_eq!(
            wrap(line, 44, hanging_indent(line)),
            [
                "  level N           change the bot's level",
                "                    (1 to 99, top)"
            ]
        );
        assert_eq!(hanging_indent("playing"), 4);
        assert_eq!(hanging_indent("  ctrl-u, esc       clear"), 20);
    }

    #[test]
    fn wrapping_cuts_at_spaces_and_indents() {
        assert_eq!(wrap("a bb cc", 4, 1), ["a bb", " cc"]);
        assert_eq!(wrap("short", 40, 2), ["short"]);
        assert_eq!(wrap(" 1. a2  rosette", 15, 2), [" 1. a2  rosette"]);
        assert_eq!(wrap(" 1. a2  rosette", 12, 2), [" 1. a2", "  rosette"]);
        assert_eq!(
            wrap("  12. light rolls", 10, 6),
            ["  12.", "      light", "      rolls"]
        );
    }
}
