#!/usr/bin/env node
// A random bot in JavaScript (Node.js, no packages) speaking the agent protocol tribune-agent/1
// (docs/agent-protocol.md). Run it as an agent:
//
//   tribune tournament 'cmd:node examples/bots/random_bot.js' heuristic heuristic heuristic
//
// It reads one JSON message per line on stdin and writes one per line on stdout: it answers "hello" with the rule
// sets it plays, "reset" with "ready" (seeding its generator from the game's seed, so a game replays exactly) and
// "act" with a legal id. It prefers a choice whose words say it takes a card or places a follower on a region,
// else draws at random. It counts its wins from "game_over" and ends at "bye" or at the end of its input.
"use strict";

const readline = require("node:readline");

const PROTOCOL = "tribune-agent/1";

// mulberry32: a small seeded generator (Math.random cannot be seeded)
function generator(seed) {
  let a = Number(BigInt.asUintN(32, BigInt(seed)));
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function answer(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

let random = generator(0);
let seat = 0;
let games = 0;
let wins = 0;

function choose(message) {
  const legal = message.legal;
  const liked = legal.filter((c) => /^(choose|place a follower on)/.test(c.words));
  const pool = liked.length > 0 && random() < 0.5 ? liked : legal;
  return pool[Math.floor(random() * pool.length)].id;
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });

input.on("line", (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      if (message.protocol !== PROTOCOL) {
        answer({ type: "error", message: `I speak ${PROTOCOL}, not ${message.protocol}` });
        process.exit(1);
      }
      answer({ type: "hello", protocol: PROTOCOL, name: "random-bot.js", rules: ["base", "expansion", "brutii"] });
      break;
    case "reset":
      seat = message.seat;
      random = generator(message.seed);
      answer({ type: "ready" });
      break;
    case "act":
      answer({ type: "action", id: choose(message) });
      break;
    case "game_over":
      games += 1;
      if (message.result !== null && message.result.winners.includes(seat)) wins += 1;
      process.stderr.write(`random-bot.js: game ${message.game} over, ${wins} won of ${games}\n`);
      break;
    case "bye":
      input.close();
      break;
    default:
      break; // a later version of the protocol may add messages that need no answer: ignore them
  }
});

input.on("close", () => process.exit(0));
