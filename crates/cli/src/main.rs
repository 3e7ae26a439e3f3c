//! `race`: the command-line front end for the Royal Game of Ur and Senet.

fn main() {
    println!("race");
}
