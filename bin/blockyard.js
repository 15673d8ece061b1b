#!/usr/bin/env node
// Operator entry point (`npx blockyard serve`, `npx blockyard admin ...`): runs the compiled CLI.
import '../dist/main.js';
