//! The integration tests, gathered into one test crate (one binary to link instead of one per
//! file): one module per area and file, shared helpers under `common/`.
//!
//! Run one area with a filter, e.g. `cargo test --test it hunt_perft::`.

mod common;

mod check_cmd;
mod cli_bounds;
mod cluster;
mod docs_sync;
mod family_table;
mod fuzz;
mod harden_cli;
mod harden_more;
mod harden_table;
mod hunt_cli;
mod hunt_ludii_games;
mod hunt_perft;
mod layers;
mod mcts;
mod not_regular;
mod out_of_core;
mod prove;
mod prove_bounds;
mod prove_frontier;
mod prove_memory;
mod prove_openings;
mod prove_within;
mod retro_graph;
mod retro_hunt;
mod retro_published;
mod retro_split;
mod retro_tafl;
mod retro_ttt;
mod search_cycles;
mod search_games;
mod search_query;
mod search_tables;
mod search_toy;
mod serve;
mod side_words;
mod stats_cli;
mod stats_compare;
mod stats_exact_vs_retro;
mod stats_honest;
mod stats_ludii;
mod table_analyze_sides;
mod table_cli;
mod table_crosscheck;
mod table_cycles;
mod table_format;
mod table_orbits;
mod table_probe;
mod table_verify;
mod tafl_perft;
mod trust_certs;
mod trust_checker;
mod trust_cli;
mod trust_edges;
mod trust_rules;
mod trust_sound;
mod trust_user;
