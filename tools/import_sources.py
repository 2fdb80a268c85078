#!/usr/bin/env python3
"""Import the three law texts into the rulebook YAML files (provenance only).

    python3 tools/import_sources.py [SOURCES_DIR]      # default: ../shared/sources

Reads euchre-code.txt, short-whist-laws.txt and long-whist-laws.txt (each a
header, a line of `=====`, then the laws) and writes
adjudicate/rulebooks/{euchre,short-whist,long-whist}.yaml in the record format
of docs/rulebook-format.md.

The mechanical part is parsed: ids, sections, the verbatim text with its line
breaks, clauses I, II, ..., footnotes (attached to the law whose text holds the
marker `[n]`) and the refs that the patterns "Law 27", "Rule 32", "Laws 45 and
50", "Law 44, paragraph iv" find. The human part -- title, kind, subjects, and
the refs no pattern finds ("the previous rule") -- is the ANNOTATIONS table
below.

The script was run once and its output committed. From then on the YAML files
are the source of truth (conditions and remedies are added to them by hand), so
do not re-run it over edited rulebooks; tools/check_sources.py checks the YAML
against the sources instead.

Only the standard library and PyYAML are used (PyYAML only to verify that each
emitted file loads back to exactly the data that was meant).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "adjudicate" / "rulebooks"

# ----------------------------------------------------------------------------
# The codes: source file, metadata, where the laws end, expected ids and clauses
# ----------------------------------------------------------------------------

CODES: dict[str, dict] = {
    "euchre": {
        "file": "euchre-code.txt",
        "meta": {
            "code": "euchre",
            "title": "The Laws of Euchre, as adopted by the Somerset Club of Boston, March 1, 1888",
            "authors": ["H. C. Leeds", "James Dwight"],
            "club": "Somerset Club of Boston",
            "year": 1888,
            "edition": "Boston: Ticknor and Company, 1888 (University Press: John Wilson and Son, Cambridge)",
            "source": "Project Gutenberg EBook #20506, plain-text file 20506.txt (CRLF converted to LF, no corrections)",
            "note": (
                "Laws 1-105 and the Etiquette of Euchre (106-116) as printed. The book's "
                "\"Technical Terms used in Euchre\" that follow the etiquette are a glossary, "
                "not laws, and are omitted."
            ),
            "game": {
                "family": "euchre",
                "ranks": ["A", "K", "Q", "J", "T", "9", "8", "7"],
                "hand_size": 5,
                "game_points": 5,
            },
        },
        # headings that end the laws (what follows is not a law)
        "stop": {"TECHNICAL TERMS USED IN EUCHRE."},
        "footnotes": None,
        "ids": range(1, 117),
        "clauses": {"42": ["I", "II"], "46": ["I", "II", "III"]},
    },
    "short-whist": {
        "file": "short-whist-laws.txt",
        "meta": {
            "code": "short-whist",
            "title": "The Laws of Short Whist (the Club Code, 1864)",
            "authors": ["James Clay", "J. L. Baldwin"],
            "annotator": "Cavendish",
            "club": "Arlington and Portland Clubs",
            "year": 1864,
            "edition": (
                "Cavendish, The Laws and Principles of Whist Stated and Explained, "
                "18th edition, London: Thos. De La Rue & Co., 1889"
            ),
            "source": "Project Gutenberg EBook #51039, plain-text file 51039-0.txt (no corrections)",
            "note": (
                "Laws 1-91 of the Club Code, \"by permission, verbatim\", with Cavendish's "
                "footnotes [1]-[36] kept as notes on the law whose text holds the marker. "
                "The unnumbered Etiquette of Whist, Dummy and Double Dummy that follow the "
                "laws in the book (with footnotes [37]-[40]) are not laws and are omitted."
            ),
            "game": {
                "family": "whist",
                "ranks": ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"],
                "hand_size": 13,
                "game_points": 5,
            },
        },
        "stop": {"ETIQUETTE OF WHIST."},
        "footnotes": "FOOTNOTES:",
        "ids": range(1, 92),
        "clauses": {
            "3": ["I", "II", "III"],
            "8": ["I", "II", "III"],
            "37": ["I", "II"],
            "44": ["I", "II", "III", "IV", "V", "VI", "VII"],
            "56": ["I", "II"],
            "72": ["I", "II", "III", "IV", "V"],
        },
        "note_by": "Cavendish",
    },
    "long-whist": {
        "file": "long-whist-laws.txt",
        "meta": {
            "code": "long-whist",
            "title": "Laws of Long Whist, after Hoyle (a condensed household version)",
            "authors": ["Edmond Hoyle"],
            "club": None,
            "year": None,
            "edition": (
                "an unidentified household reference book: a condensed rewording of "
                "Hoyle's old laws of Long Whist, laws numbered under its sections 2087-2091"
            ),
            "source": "seed document 004_0118e0abdf6ea151.txt, reproduced unchanged",
            "note": (
                "Only laws 7-25 are in hand: laws 1-6 of the source (on dealing) are not. "
                "The source's typos are kept as printed (\"tramp card\", \"having: them\", "
                "\"jn any suit\", law 22 ending in a comma, law 14 broken into two "
                "paragraphs). Game is ten points; honours are called at the point of eight."
            ),
            "game": {
                "family": "whist",
                "ranks": ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"],
                "hand_size": 13,
                "game_points": 10,
            },
        },
        "stop": set(),
        "footnotes": None,
        "ids": range(7, 26),
        "clauses": {},
    },
}

# ----------------------------------------------------------------------------
# The human part: (code, id) -> (title, kind, subjects)
# ----------------------------------------------------------------------------

KINDS = ("definition", "scoring", "procedure", "penalty", "ruling", "etiquette")

E, S, L = "euchre", "short-whist", "long-whist"

ANNOTATIONS: dict[tuple[str, str], tuple[str, str, list[str]]] = {
    # --- Euchre: the rubber and scoring
    (E, "1"): ("The rubber", "definition", ["rubber"]),
    (E, "2"): ("Points for a hand", "scoring", ["scoring.points"]),
    (E, "3"): ("Points for a lone hand", "scoring", ["scoring.points", "lone-hand"]),
    (E, "4"): ("Revoke penalty scores first", "scoring", ["scoring.precedence"]),
    (E, "5"): ("Correcting an error in the score", "ruling", ["scoring.error"]),
    (E, "6"): ("Announce points before scoring", "procedure", ["scoring.points"]),
    (E, "7"): ("Value of games and the rubber", "scoring", ["scoring.game-value", "rubber"]),
    # cutting, the table
    (E, "8"): ("Rank of cards in cutting", "procedure", ["cutting"]),
    (E, "9"): ("Cut from the same pack", "procedure", ["cutting"]),
    (E, "10"): ("More than one card exposed in cutting", "procedure", ["cutting"]),
    (E, "11"): ("Selecting the players and partners", "procedure", ["table.formation"]),
    (E, "12"): ("Six belong to a table", "procedure", ["table.formation"]),
    (E, "13"): ("Two equal cuts", "procedure", ["table.cutting-ties"]),
    (E, "14"): ("Three equal cuts", "procedure", ["table.cutting-ties"]),
    (E, "15"): ("Who goes out at the end of a rubber", "procedure", ["table.cutting-out"]),
    (E, "16"): ("Declaring the wish to enter", "procedure", ["table.entry"]),
    (E, "17"): ("Entry to fresh tables", "procedure", ["table.entry"]),
    (E, "18"): ("Appointing a substitute", "procedure", ["table.entry"]),
    (E, "19"): ("Player leaving a full table", "procedure", ["table.entry"]),
    (E, "20"): ("Cutting into another table", "procedure", ["table.entry"]),
    (E, "21"): ("Breaking up a table", "procedure", ["table.entry"]),
    # shuffling, the deal
    (E, "22"): ("How the pack may be shuffled", "procedure", ["shuffling"]),
    (E, "23"): ("No shuffling during the play", "procedure", ["shuffling"]),
    (E, "24"): ("Each player shuffles once", "procedure", ["shuffling"]),
    (E, "25"): ("Dealer's partner collects the cards", "procedure", ["shuffling"]),
    (E, "26"): ("Placing the shuffled pack", "procedure", ["shuffling"]),
    (E, "27"): ("Dealer shuffles last", "procedure", ["shuffling"]),
    (E, "28"): ("The deal passes to the left", "procedure", ["deal.rotation"]),
    (E, "29"): ("Cutting the pack for the deal", "procedure", ["deal.cut"]),
    (E, "30"): ("A cut cannot be altered", "procedure", ["deal.cut"]),
    (E, "31"): ("Dealer re-shuffles after the cut", "penalty", ["deal.cut", "shuffling"]),
    (E, "32"): ("Dealer puts the pack at his right", "procedure", ["deal.rotation"]),
    # a new deal
    (E, "33"): ("Incorrect or imperfect pack", "ruling", ["new-deal"]),
    (E, "34"): ("Card faced in the pack", "ruling", ["new-deal"]),
    (E, "35"): ("Card exposed in dealing", "penalty", ["new-deal.exposed-card"]),
    (E, "36"): ("Touching one's cards during the deal", "ruling", ["new-deal.exposed-card"]),
    (E, "37"): ("One of the last cards exposed", "ruling", ["new-deal.exposed-card"]),
    (E, "38"): ("Deal with the adversaries' cards", "ruling", ["deal.wrong-pack", "new-deal"]),
    (E, "39"): ("Card exposed in turning the trump", "ruling", ["new-deal.exposed-card", "trump-card"]),
    (E, "40"): ("Deal out of turn", "ruling", ["deal.out-of-turn"]),
    # a misdeal
    (E, "41"): ("A misdeal loses the deal", "penalty", ["misdeal"]),
    (E, "42"): ("What is a misdeal", "definition", ["misdeal.definition"]),
    (E, "43"): ("Adversaries touch the cards before a misdeal", "ruling", ["misdeal"]),
    (E, "44"): ("Dealer interrupted by the adversaries", "ruling", ["misdeal.interruption"]),
    (E, "45"): ("Taking partner's deal and misdealing", "penalty", ["misdeal", "deal.rotation"]),
    # cards liable to be called
    (E, "46"): ("Exposed cards", "definition", ["exposed-cards.definition", "exposed-cards"]),
    (E, "47"): ("Winning cards led without waiting for partner", "penalty", ["winning-card-led-again"]),
    (E, "48"): ("Cards thrown down face upwards", "penalty", ["hands-thrown-down", "exposed-cards"]),
    (E, "49"): ("All four hands thrown down", "ruling", ["hands-abandoned"]),
    (E, "50"): ("Adversary abandons his hand against a lone hand", "penalty", ["hands-abandoned", "lone-hand"]),
    (E, "51"): ("Detached card", "penalty", ["detached-card"]),
    (E, "52"): ("Lead out of turn", "penalty", ["lead-out-of-turn"]),
    (E, "53"): ("Lead out of turn followed by the others", "ruling", ["lead-out-of-turn.followed"]),
    (E, "54"): ("Called card or suit not played", "penalty", ["called-card.not-complied"]),
    (E, "55"): ("No one compelled to revoke", "ruling", ["called-card.no-revoke-compelled"]),
    (E, "56"): ("Call for an exposed card repeated", "ruling", ["exposed-cards.call-repeated"]),
    (E, "57"): ("Called suit not held", "ruling", ["called-suit.none-held"]),
    # cards played in error
    (E, "58"): ("Third hand plays before second", "ruling",
                ["play-out-of-turn", "play-out-of-turn.third-before-second"]),
    (E, "59"): ("Fourth hand plays before partner", "penalty",
                ["play-out-of-turn", "play-out-of-turn.fourth-before-partner"]),
    (E, "60"): ("Omitting to play to a trick", "penalty", ["omitted-play"]),
    (E, "61"): ("Two cards played to one trick", "ruling", ["two-cards-one-trick"]),
    # the revoke
    (E, "62"): ("Revoke defined", "definition", ["revoke.definition"]),
    (E, "63"): ("Penalty for a revoke", "penalty", ["revoke.penalty"]),
    (E, "64"): ("When a revoke is established", "ruling", ["revoke.established"]),
    (E, "65"): ("Partner's question saves the revoke", "ruling", ["revoke.question"]),
    (E, "66"): ("Claimants may search the tricks", "procedure", ["revoke.search"]),
    (E, "67"): ("Cards mixed after a revoke is claimed", "ruling", ["revoke.mixing"]),
    (E, "68"): ("Time limit for claiming a revoke", "ruling", ["revoke.claim-time"]),
    (E, "69"): ("Revoke corrected in time", "penalty", ["revoke.corrected"]),
    (E, "70"): ("Revoking side may have the hand played out", "ruling", ["revoke.play-out"]),
    (E, "71"): ("Revokes on both sides cancel", "ruling", ["revoke.both-sides"]),
    # new cards
    (E, "72"): ("Calling for fresh cards", "procedure", ["new-cards"]),
    (E, "73"): ("Torn or marked cards", "procedure", ["torn-cards"]),
    # making the trump and playing
    (E, "74"): ("Eldest hand's choice", "procedure", ["making-trump", "lone-hand"]),
    (E, "75"): ("Second hand's choice", "procedure", ["making-trump", "lone-hand"]),
    (E, "76"): ("Third hand's and dealer's choice", "procedure", ["making-trump", "lone-hand"]),
    (E, "77"): ("All pass: the trump turned down", "procedure", ["making-trump"]),
    (E, "78"): ("A suit named cannot be changed", "ruling", ["making-trump"]),
    (E, "79"): ("Mentioning the suit he meant to make", "penalty", ["making-trump"]),
    (E, "80"): ("Assisting or ordering up after passing", "penalty", ["making-trump"]),
    (E, "81"): ("Declaration not heard by partner", "ruling", ["making-trump"]),
    (E, "82"): ("Passing or ordering up out of turn", "ruling", ["making-trump"]),
    (E, "83"): ("Calling attention to the trick", "penalty", ["calling-attention"]),
    (E, "84"): ("Cards placed before their players", "procedure", ["cards-placed"]),
    (E, "85"): ("Partners must not consult on a penalty", "procedure", ["penalty.consultation"]),
    # the discard
    (E, "86"): ("The dealer's discard", "procedure", ["discard"]),
    (E, "87"): ("Lead before the discard is complete", "ruling", ["discard"]),
    (E, "88"): ("The trump card cannot be discarded", "ruling", ["discard", "trump-card"]),
    (E, "89"): ("Lead before the discard against a lone third hand", "penalty", ["discard", "lone-hand"]),
    (E, "90"): ("Wrong number of cards or no discard", "penalty", ["wrong-number-of-cards", "discard"]),
    # the trump card
    (E, "91"): ("Trump card left in view", "ruling", ["trump-card", "exposed-cards"]),
    (E, "92"): ("Asking what card was turned up", "ruling", ["trump-card"]),
    # playing alone
    (E, "93"): ("Who may play alone", "procedure", ["lone-hand"]),
    (E, "94"): ("Partner takes the lone hand", "procedure", ["lone-hand"]),
    (E, "95"): ("When a player cannot play alone", "ruling", ["lone-hand"]),
    (E, "96"): ("Dealer announces alone before quitting the discard", "procedure", ["lone-hand", "discard"]),
    (E, "97"): ("Announce alone before naming the trump", "penalty", ["lone-hand", "making-trump"]),
    (E, "98"): ("A single declaration", "procedure", ["lone-hand", "making-trump"]),
    (E, "99"): ("Partner offers to take it too late", "penalty", ["lone-hand"]),
    (E, "100"): ("Partner plays to the first lead of a lone hand", "penalty", ["lone-hand"]),
    (E, "101"): ("Lone player's partner lays down his cards", "procedure", ["lone-hand"]),
    (E, "102"): ("Lone player's partner exposes a card", "penalty", ["lone-hand", "exposed-cards"]),
    (E, "103"): ("Counting the lone player's partner's hand", "procedure", ["lone-hand", "wrong-number-of-cards"]),
    (E, "104"): ("Lone player's exposed card or lead out of turn", "penalty",
                 ["lone-hand", "exposed-cards", "lead-out-of-turn"]),
    (E, "105"): ("Adversary plays out of turn to a lone hand", "penalty", ["lone-hand", "play-out-of-turn"]),
    # etiquette
    (E, "106"): ("Etiquette is not law", "etiquette", ["etiquette"]),
    (E, "107"): ("Two packs of different colours", "etiquette", ["etiquette", "new-cards"]),
    (E, "108"): ("Not drawing the next winning card early", "etiquette", ["etiquette", "winning-card-led-again"]),
    (E, "109"): ("No intimation by word or gesture", "etiquette", ["etiquette"]),
    (E, "110"): ("Cards placed or last trick for one's own information", "etiquette",
                 ["etiquette", "cards-placed", "last-trick"]),
    (E, "111"): ("Referring a question to a bystander", "etiquette", ["etiquette", "bystanders"]),
    (E, "112"): ("No purposeful revoke", "etiquette", ["etiquette"]),
    (E, "113"): ("Bets with bystanders", "etiquette", ["etiquette", "bystanders"]),
    (E, "114"): ("Bystanders make no remark", "etiquette", ["etiquette", "bystanders"]),
    (E, "115"): ("Not looking over an opponent's hand when betting", "etiquette", ["etiquette", "bystanders"]),
    (E, "116"): ("Same manner in passing and ordering", "etiquette", ["etiquette", "making-trump"]),

    # --- Short Whist: the rubber and scoring
    (S, "1"): ("The rubber", "definition", ["rubber"]),
    (S, "2"): ("Game and trick points", "scoring", ["scoring.points"]),
    (S, "3"): ("Scoring honours", "scoring", ["scoring.honours"]),
    (S, "4"): ("No honours at the score of four", "scoring", ["scoring.honours"]),
    (S, "5"): ("Order of scoring: revoke, tricks, honours", "scoring", ["scoring.precedence"]),
    (S, "6"): ("Honours must be claimed in time", "ruling", ["scoring.honours", "honours.calling"]),
    (S, "7"): ("Honours must be called at the end of the hand", "ruling", ["honours.calling", "scoring.honours"]),
    (S, "8"): ("Value of a game", "scoring", ["scoring.game-value"]),
    (S, "9"): ("Rubber points", "scoring", ["rubber", "scoring.game-value"]),
    (S, "10"): ("Losers' game deducted in a three-game rubber", "scoring", ["rubber", "scoring.game-value"]),
    (S, "11"): ("Correcting an erroneous score", "ruling", ["scoring.error"]),
    (S, "12"): ("Error affecting the amount of the rubber", "ruling", ["scoring.error"]),
    # cutting, the table
    (S, "13"): ("Ace lowest in cutting", "procedure", ["cutting"]),
    (S, "14"): ("Cut from the same pack", "procedure", ["cutting"]),
    (S, "15"): ("More than one card exposed in cutting", "procedure", ["cutting"]),
    (S, "16"): ("Selecting the players and partners", "procedure", ["table.formation"]),
    (S, "17"): ("Six belong to a table", "procedure", ["table.formation", "table.entry"]),
    (S, "18"): ("Two equal cuts", "procedure", ["table.cutting-ties"]),
    (S, "19"): ("Three equal cuts", "procedure", ["table.cutting-ties"]),
    (S, "20"): ("Who goes out at the end of a rubber", "procedure", ["table.cutting-out"]),
    (S, "21"): ("Declaring the wish to enter", "procedure", ["table.entry"]),
    (S, "22"): ("Entry to fresh tables", "procedure", ["table.entry"]),
    (S, "23"): ("Appointing a substitute", "procedure", ["table.entry"]),
    (S, "24"): ("Cutting into another table", "procedure", ["table.entry"]),
    (S, "25"): ("Breaking up a table", "procedure", ["table.entry"]),
    # shuffling, the deal
    (S, "26"): ("How the pack may be shuffled", "procedure", ["shuffling"]),
    (S, "27"): ("No shuffling during the play", "procedure", ["shuffling"]),
    (S, "28"): ("No shuffling in packets or across the table", "procedure", ["shuffling"]),
    (S, "29"): ("Each player shuffles once", "procedure", ["shuffling"]),
    (S, "30"): ("Dealer's partner collects the cards", "procedure", ["shuffling"]),
    (S, "31"): ("Placing the shuffled pack", "procedure", ["shuffling"]),
    (S, "32"): ("Dealer shuffles last", "procedure", ["shuffling"]),
    (S, "33"): ("The deal passes to the left", "procedure", ["deal.rotation"]),
    (S, "34"): ("Cutting the pack for the deal", "procedure", ["deal.cut"]),
    (S, "35"): ("A cut cannot be altered", "procedure", ["deal.cut"]),
    (S, "36"): ("Dealer shuffles after the cut", "penalty", ["deal.cut", "shuffling"]),
    # a new deal
    (S, "37"): ("When there must be a new deal", "ruling", ["new-deal"]),
    (S, "38"): ("Card exposed in dealing", "penalty", ["new-deal.exposed-card"]),
    (S, "39"): ("Touching one's cards during the deal", "ruling", ["new-deal.exposed-card"]),
    (S, "40"): ("One of the last cards exposed", "ruling", ["new-deal.exposed-card"]),
    (S, "41"): ("Dealer looks at the trump card", "penalty", ["new-deal", "trump-card"]),
    (S, "42"): ("Card of the other pack taken into the hand", "penalty", ["deal.wrong-pack", "new-deal"]),
    # a misdeal
    (S, "43"): ("A misdeal loses the deal", "penalty", ["misdeal"]),
    (S, "44"): ("What is a misdeal", "definition", ["misdeal.definition"]),
    (S, "45"): ("Adversaries touch the cards before a misdeal", "ruling", ["misdeal"]),
    (S, "46"): ("Player short of cards", "ruling", ["wrong-number-of-cards"]),
    (S, "47"): ("Pack proved incorrect or imperfect", "ruling", ["new-deal"]),
    (S, "48"): ("Deal out of turn or with the adversary's cards", "ruling", ["deal.out-of-turn", "deal.wrong-pack"]),
    (S, "49"): ("No shuffling, cutting or dealing for partner", "procedure",
                ["shuffling", "deal.cut", "deal.rotation"]),
    (S, "50"): ("Dealer interrupted by the adversaries", "ruling", ["misdeal.interruption"]),
    (S, "51"): ("Taking partner's deal and misdealing", "penalty", ["misdeal", "deal.rotation"]),
    # the trump card
    (S, "52"): ("Dealer takes the trump card into his hand", "penalty", ["trump-card"]),
    (S, "53"): ("Naming the trump card after it is taken up", "penalty", ["trump-card"]),
    (S, "54"): ("Trump card taken up before the dealer's turn", "penalty", ["trump-card"]),
    (S, "55"): ("Dealer cannot recollect the trump card", "penalty", ["trump-card", "exposed-cards.call-repeated"]),
    # cards liable to be called
    (S, "56"): ("Exposed cards", "definition", ["exposed-cards.definition", "exposed-cards"]),
    (S, "57"): ("Winning cards led without waiting for partner", "penalty", ["winning-card-led-again"]),
    (S, "58"): ("Cards thrown down face upwards", "penalty", ["hands-thrown-down", "exposed-cards"]),
    (S, "59"): ("All four hands thrown down", "penalty", ["hands-abandoned", "revoke.penalty", "revoke.game-limit"]),
    (S, "60"): ("Detached card", "penalty", ["detached-card"]),
    (S, "61"): ("Called card or suit not played", "penalty", ["called-card.not-complied"]),
    (S, "62"): ("Lead out of turn", "penalty", ["lead-out-of-turn"]),
    (S, "63"): ("Lead out of turn followed by the others", "penalty", ["lead-out-of-turn.followed"]),
    (S, "64"): ("No one compelled to revoke", "ruling", ["called-card.no-revoke-compelled"]),
    (S, "65"): ("Call of a card repeated", "ruling", ["exposed-cards.call-repeated"]),
    (S, "66"): ("Called suit not held", "ruling", ["called-suit.none-held"]),
    # cards played in error
    (S, "67"): ("Third hand plays before second", "ruling",
                ["play-out-of-turn", "play-out-of-turn.third-before-second"]),
    (S, "68"): ("Fourth hand plays before partner", "penalty",
                ["play-out-of-turn", "play-out-of-turn.fourth-before-partner"]),
    (S, "69"): ("Omitting to play to a trick", "penalty", ["omitted-play"]),
    (S, "70"): ("Two cards played to one trick", "ruling", ["two-cards-one-trick"]),
    # the revoke
    (S, "71"): ("Revoke defined", "definition", ["revoke.definition"]),
    (S, "72"): ("Penalty for a revoke", "penalty", ["revoke.penalty", "scoring.precedence"]),
    (S, "73"): ("When a revoke is established", "ruling", ["revoke.established"]),
    (S, "74"): ("Partner's question saves the revoke", "ruling", ["revoke.question"]),
    (S, "75"): ("Claimants may search the tricks", "procedure", ["revoke.search"]),
    (S, "76"): ("Revoke corrected in time", "penalty", ["revoke.corrected"]),
    (S, "77"): ("Cards mixed, and a revoke claimed", "ruling", ["revoke.mixing"]),
    (S, "78"): ("Time limit for claiming a revoke", "ruling", ["revoke.claim-time"]),
    (S, "79"): ("Revoking side may have the hand played out", "ruling", ["revoke.play-out"]),
    (S, "80"): ("Bets decided after the revoke penalty", "ruling", ["revoke.bets"]),
    (S, "81"): ("Revokes on both sides", "penalty", ["revoke.both-sides"]),
    (S, "82"): ("Revoking side cannot win the game that hand", "penalty", ["revoke.game-limit"]),
    # new cards, general rules
    (S, "83"): ("Calling for fresh cards", "procedure", ["new-cards"]),
    (S, "84"): ("Partners must not consult on a penalty", "procedure", ["penalty.consultation"]),
    (S, "85"): ("Cards placed before their players", "procedure", ["cards-placed"]),
    (S, "86"): ("Calling attention to the trick", "penalty", ["calling-attention"]),
    (S, "87"): ("Time to decide on a penalty", "procedure", ["penalty.time-to-decide"]),
    (S, "88"): ("Bystander's remark on the score", "penalty", ["bystanders"]),
    (S, "89"): ("A bystander may decide by agreement", "procedure", ["bystanders"]),
    (S, "90"): ("Torn or marked cards", "procedure", ["torn-cards"]),
    (S, "91"): ("Seeing the last trick", "procedure", ["last-trick"]),

    # --- Long Whist
    (L, "7"): ("Play or lead out of turn", "penalty", ["lead-out-of-turn", "play-out-of-turn"]),
    (L, "8"): ("Leading again before partner has played", "penalty", ["winning-card-led-again"]),
    (L, "9"): ("Partner plays before his turn", "ruling",
               ["play-out-of-turn", "play-out-of-turn.third-before-second"]),
    (L, "10"): ("Playing out of turn to a suit led", "penalty",
                ["play-out-of-turn", "play-out-of-turn.fourth-before-partner"]),
    (L, "11"): ("Penalty for a revoke", "penalty", ["revoke.penalty", "revoke.game-limit"]),
    (L, "12"): ("Revoke discovered before the cards are turned", "penalty", ["revoke.corrected"]),
    (L, "13"): ("When a revoke may be claimed", "ruling", ["revoke.established"]),
    (L, "14"): ("Cards mixed after a revoke is claimed", "ruling", ["revoke.mixing"]),
    (L, "15"): ("Time limit for claiming a revoke", "ruling", ["revoke.claim-time"]),
    (L, "16"): ("Calling except at the point of eight", "penalty", ["honours.calling"]),
    (L, "17"): ("Reminding partner to call", "penalty", ["honours.calling"]),
    (L, "18"): ("Honours must be claimed before the next trump", "penalty", ["honours.calling", "scoring.honours"]),
    (L, "19"): ("Call answered without the honours", "penalty", ["honours.calling"]),
    (L, "20"): ("Answering without an honour", "penalty", ["honours.calling"]),
    (L, "21"): ("Calling at eight after having played", "penalty", ["honours.calling"]),
    (L, "22"): ("Separated card", "penalty", ["detached-card"]),
    (L, "23"): ("Cards thrown on the table", "penalty", ["hands-thrown-down", "exposed-cards"]),
    (L, "24"): ("Showing a hand sure of every trick", "penalty", ["hands-thrown-down", "exposed-cards"]),
    (L, "25"): ("Omitting to play to a trick", "penalty", ["omitted-play"]),
}

# refs that no pattern finds: (code, id) -> ids
EXTRA_REFS: dict[tuple[str, str], list[str]] = {
    (E, "94"): ["93"],  # "subject to the previous rule"
    (E, "4"): ["63"],   # "The penalty of a revoke"
    (E, "45"): ["41"],  # "liable to the usual penalties" (of a misdeal)
    (E, "54"): ["63"],  # "he incurs the penalty of a revoke"
    (S, "5"): ["72"],   # "The penalty for a revoke" (so also footnote [1])
    (S, "51"): ["43"],  # "liable to the usual penalty" (of a misdeal)
    (S, "61"): ["72"],  # "he incurs the penalty of a revoke"
    (S, "81"): ["72"],  # "the penalty of one or more revokes" (so also footnote [34])
    (S, "82"): ["72"],  # "In whatever way the penalty be enforced"
    (S, "84"): ["72"],  # "the penalties for a revoke"
}

# ----------------------------------------------------------------------------
# Parsing
# ----------------------------------------------------------------------------

LAW_RE = re.compile(r"^(\d{1,3})\. (.*)$")
LONG_HEADING_RE = re.compile(r"^\d{4}\. (.+)$")  # "2088. Revoking"
FOOTNOTE_RE = re.compile(r"^\[(\d+)\] (.*)$")
CLAUSE_RE = re.compile(r"^\s*([IVX]+)\. (.*)$")
MARK_RE = re.compile(r"\[(\d+)\]")
CITE_RE = re.compile(
    r"\b(?:laws?|rules?)\s+"
    r"(\d+(?:\s*,\s*paragraph\s+[ivx]+)?"
    r"(?:\s*(?:,\s*and|,|and)\s*\d+(?:\s*,\s*paragraph\s+[ivx]+)?)*)",
    re.IGNORECASE,
)
CITE_ITEM_RE = re.compile(r"(\d+)(?:\s*,\s*paragraph\s+([ivx]+))?", re.IGNORECASE)


def is_heading(line: str) -> bool:
    """An unindented line in capitals: "THE REVOKE.", "FOOTNOTES:"."""
    return (
        bool(line)
        and not line[0].isspace()
        and not line[0].isdigit()
        and re.search(r"[A-Z]", line) is not None
        and re.search(r"[a-z]", line) is None
    )


def section_name(heading: str) -> str:
    """'CARDS LIABLE TO BE CALLED.' -> 'Cards Liable To Be Called'."""
    heading = heading.strip().rstrip(".:")
    return " ".join(w[:1].upper() + w[1:].lower() for w in heading.split(" "))


def strip_blank_ends(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    while lines and not lines[0].strip():
        lines = lines[1:]
    return lines


def body_lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if re.fullmatch(r"={5,}", line.strip()):
            return lines[i + 1:]
    raise SystemExit(f"{path}: no line of ===== between header and laws")


def parse_source(code: str, cfg: dict, path: Path):
    """Return ([law dict], {mark: footnote lines}) for one source file."""
    laws: list[dict] = []
    footnotes: dict[str, list[str]] = {}
    section = None
    cur: list[str] | None = None  # lines of the law or footnote being read
    mode = "laws"

    for line in body_lines(path):
        long_heading = LONG_HEADING_RE.match(line) if code == "long-whist" else None
        if long_heading or is_heading(line):
            cur = None
            if line in cfg["stop"]:
                break
            if cfg["footnotes"] and line == cfg["footnotes"]:
                mode = "footnotes"
                continue
            section = long_heading.group(1).strip() if long_heading else section_name(line)
            continue
        if mode == "laws":
            m = LAW_RE.match(line)
            if m:
                cur = [m.group(2)]
                laws.append({"id": m.group(1), "section": section, "lines": cur})
                continue
        else:
            m = FOOTNOTE_RE.match(line)
            if m:
                cur = [m.group(2)]
                footnotes[m.group(1)] = cur
                continue
        if cur is not None:
            cur.append(line.rstrip())
        elif line.strip():
            raise SystemExit(f"{path}: text outside any law: {line!r}")

    for law in laws:
        law["lines"] = strip_blank_ends(law["lines"])
    footnotes = {k: strip_blank_ends(v) for k, v in footnotes.items()}
    return laws, footnotes


def parse_clauses(lines: list[str]) -> list[dict]:
    """Clauses "I. ...", "II. ..." each running to a blank line or the next clause."""
    clauses: list[dict] = []
    cur: list[str] | None = None
    for line in lines:
        m = CLAUSE_RE.match(line)
        if m:
            cur = [m.group(2).strip()]
            clauses.append({"id": m.group(1), "lines": cur})
        elif not line.strip():
            cur = None
        elif cur is not None:
            cur.append(line.strip())
    return [{"id": c["id"], "text": "\n".join(c["lines"]) + "\n"} for c in clauses]


def find_refs(text: str) -> list[str]:
    """'Law 27', 'Rule 32', 'Laws 47 and 50', 'Law 44, paragraph iv' -> ids."""
    flat = " ".join(text.split())
    refs: list[str] = []
    for m in CITE_RE.finditer(flat):
        for item in CITE_ITEM_RE.finditer(m.group(1)):
            ref = item.group(1)
            if item.group(2):
                ref += "." + item.group(2).upper()
            if ref not in refs:
                refs.append(ref)
    return refs


def build(code: str, cfg: dict, sources: Path) -> dict:
    laws, footnotes = parse_source(code, cfg, sources / cfg["file"])
    ids = [law["id"] for law in laws]
    expected = [str(i) for i in cfg["ids"]]
    if ids != expected:
        raise SystemExit(f"{code}: law ids {ids} differ from the expected {expected}")

    records = []
    used_marks: set[str] = set()
    for law in laws:
        key = (code, law["id"])
        if key not in ANNOTATIONS:
            raise SystemExit(f"{code} {law['id']}: no annotation")
        title, kind, subjects = ANNOTATIONS[key]
        if kind not in KINDS:
            raise SystemExit(f"{code} {law['id']}: unknown kind {kind!r}")
        text = "\n".join(law["lines"]) + "\n"
        refs = [r for r in find_refs(text) + EXTRA_REFS.get(key, []) if r.split(".")[0] != law["id"]]
        refs = list(dict.fromkeys(refs))
        rec = {
            "id": law["id"],
            "section": law["section"],
            "title": title,
            "kind": kind,
            "subjects": subjects,
            "refs": refs,
            "text": text,
        }
        clauses = parse_clauses(law["lines"])
        want = cfg["clauses"].get(law["id"], [])
        if [c["id"] for c in clauses] != want:
            raise SystemExit(f"{code} {law['id']}: clauses {[c['id'] for c in clauses]}, expected {want}")
        if clauses:
            rec["clauses"] = clauses
        notes = []
        for mark in MARK_RE.findall(text):
            if mark not in footnotes:
                raise SystemExit(f"{code} {law['id']}: footnote [{mark}] not found")
            if mark in used_marks:
                raise SystemExit(f"{code}: footnote [{mark}] marked twice")
            used_marks.add(mark)
            note_text = "\n".join(footnotes[mark]) + "\n"
            notes.append({"mark": mark, "by": cfg["note_by"], "text": note_text, "refs": find_refs(note_text)})
        if notes:
            rec["notes"] = notes
        records.append(rec)

    unused = set(footnotes) - used_marks
    if unused:
        raise SystemExit(f"{code}: footnotes never marked in a law: {sorted(unused, key=int)}")
    stray = {k for (c, k) in ANNOTATIONS if c == code} - set(ids)
    if stray:
        raise SystemExit(f"{code}: annotations for laws not in the source: {sorted(stray)}")

    all_ids = set(ids)
    for rec in records:
        for ref in rec["refs"] + [r for n in rec.get("notes", []) for r in n["refs"]]:
            law_id, _, clause = ref.partition(".")
            target = next((r for r in records if r["id"] == law_id), None)
            if law_id not in all_ids or (clause and clause not in [c["id"] for c in target.get("clauses", [])]):
                raise SystemExit(f"{code} {rec['id']}: ref {ref} does not resolve")

    return {**cfg["meta"], "laws": records}


# ----------------------------------------------------------------------------
# Emitting hand-formatted YAML
# ----------------------------------------------------------------------------

_PLAIN_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9 _.,'()&#-]*$")


def scalar(value, in_flow: bool = False) -> str:
    """A scalar as YAML: plain when that reads back as the same string, else double-quoted."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    s = str(value)
    plain_ok = (
        _PLAIN_RE.match(s)
        and " #" not in s
        and not s.endswith(" ")
        and not (in_flow and "," in s)
    )
    if plain_ok:
        try:
            if yaml.safe_load(s) == s:
                return s
        except yaml.YAMLError:
            pass
    return json.dumps(s, ensure_ascii=False)


def quoted(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def flow_list(items, quote: bool = False) -> str:
    return "[" + ", ".join(quoted(i) if quote else scalar(i, in_flow=True) for i in items) + "]"


def block(text: str, indent: int) -> str:
    """A literal block scalar `|` (or `|2` when the first line starts indented)."""
    assert text.endswith("\n") and not text.endswith("\n\n")
    lines = text[:-1].split("\n")
    first = next((ln for ln in lines if ln.strip()), "")
    header = "|2" if first[:1] == " " else "|"
    pad = " " * indent
    body = "\n".join(pad + ln if ln.strip() else "" for ln in lines)
    return header + "\n" + body


def emit(book: dict) -> str:
    out: list[str] = []
    for key in ("code", "title", "authors", "annotator", "club", "year", "edition", "source", "note"):
        if key not in book:
            continue
        value = book[key]
        if key == "authors":
            out.append(f"authors: {flow_list(value)}")
        else:
            out.append(f"{key}: {scalar(value)}")
    game = book["game"]
    out.append("game:")
    out.append(f"  family: {game['family']}")
    out.append(f"  ranks: {flow_list(game['ranks'], quote=False)}")
    out.append(f"  hand_size: {game['hand_size']}")
    out.append(f"  game_points: {game['game_points']}")
    out.append("laws:")
    for rec in book["laws"]:
        out.append("")
        out.append(f"  - id: {quoted(rec['id'])}")
        out.append(f"    section: {scalar(rec['section'])}")
        out.append(f"    title: {scalar(rec['title'])}")
        out.append(f"    kind: {rec['kind']}")
        out.append(f"    subjects: {flow_list(rec['subjects'])}")
        out.append(f"    refs: {flow_list(rec['refs'], quote=True)}")
        out.append(f"    text: {block(rec['text'], 6)}")
        if rec.get("clauses"):
            out.append("    clauses:")
            for c in rec["clauses"]:
                out.append(f"      - id: {quoted(c['id'])}")
                out.append(f"        text: {block(c['text'], 10)}")
        if rec.get("notes"):
            out.append("    notes:")
            for n in rec["notes"]:
                out.append(f"      - mark: {quoted(n['mark'])}")
                out.append(f"        by: {scalar(n['by'])}")
                out.append(f"        text: {block(n['text'], 10)}")
                out.append(f"        refs: {flow_list(n['refs'], quote=True)}")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    sources = Path(argv[1]) if len(argv) > 1 else ROOT.parent / "shared" / "sources"
    if not sources.is_dir():
        print(f"import_sources: no such directory: {sources}", file=sys.stderr)
        return 2
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for code, cfg in CODES.items():
        book = build(code, cfg, sources)
        text = emit(book)
        loaded = yaml.safe_load(text)
        if loaded != book:
            raise SystemExit(f"{code}: emitted YAML does not load back to the intended data")
        out = OUT_DIR / f"{code}.yaml"
        out.write_text(text, encoding="utf-8")
        print(f"{out.relative_to(ROOT)}: {len(book['laws'])} laws")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
