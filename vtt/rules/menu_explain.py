"""One plain sentence for each kind of action `legal_actions` offers, shown when a person hovers (or long-presses)
the action in the token menu. The sentences follow the rule texts (seed-000, seed-004, reference digest)."""

from __future__ import annotations

EXPLANATIONS: dict[str, str] = {
    "move": "Move to a space you can reach with the Movement you have left.",
    "dash": "Spend a Minor Action for a second pool of Movement this turn.",
    "drop_prone": "Drop to the ground: you become Prone. It costs no action.",
    "stand_up": "Get up from Prone.",
    "strike": "Attack a creature in your Reach, DL 3 against its defense; a hit rolls damage.",
    "strike_space": "Attack a space instead of a creature: whoever is in it may be hit.",
    "strike_ground": "Attack the ground in a space: −1 on the roll, its defense is 0.",
    "strike_wall": "Attack a wall filling a space, as a size 1 object.",
    "strike_stomach": "From inside, attack the stomach you are in, as an object with Durability 2.",
    "throw": "Throw the weapon at a creature in range; farther throws take −1 for each extra range.",
    "shoot": "Shoot at a creature in range; farther shots take −1 for each extra range.",
    "grab": "Seize a creature with a free limb (−1 Reach): you both are in a Hold.",
    "collision": "Move into a creature's space and fill your Movement Pool to knock into it, DL 3.",
    "charge": "After a Dash and 2 spaces in a row: +1 on the attack, −1 on your physical defenses, turn ends.",
    "called_shot": "Aim at one part: −1 on the roll; beat the defense by enough and it hits that part.",
    "flurry": "Declare a number: that many extra attacks as Minor Actions, with fewer dice on each.",
    "flurry_attack": "One of your Flurry's attacks, made as a Minor Action with fewer dice.",
    "distract": "Draw the attention of creatures aware of you: they become Focused on you (or on a sound).",
    "focus": "Fix your attention on a creature or a space in range.",
    "drop_focus": "Stop being Focused.",
    "disarm": "Make a creature drop what it holds into a space beside it, DL 3.",
    "impair": "Give a creature Tier 1 of an Ailment you choose (Blinded, Slowed...), DL 3.",
    "reposition": "Push a creature to a space you choose, DL 3.",
    "grapple": "Tighten a Hold on a creature: its Encumbered goes up by 1 and you join as a Holder.",
    "grapple_distal": "Grapple and deal your Distal's damage too.",
    "swallow": "Grapple a creature 6 or more sizes smaller to swallow it into your stomach.",
    "break_hold": "Attack a Holder to loosen its Hold on a creature (Encumbered −2).",
    "drop_hold": "Let go of every creature you hold.",
    "defensive_stance": "+1 on defenses against physical attacks; you cannot attack or Manifest meanwhile.",
    "soothe": "Ease a creature in your Reach: one of its Continuing Acid damages drops by 1.",
    "manifest": "Manifest a Spell or Talent: DL 6 and 1 Energy (a Spell also uses a free limb and words).",
    "ready": "Manifest now but keep it in a free limb, without effect until you complete it.",
    "complete_ready": "Release the Readied Spell or Talent as a Minor Action, with the roll already made.",
    "dismiss": "End a Spell or Talent you keep going.",
    "pick_up": "Take a weapon lying within your Reach into your free hands.",
    "recover": "Use your Major Action for Recovery while your Resolve Pool is full.",
    "zeal_for_major": "Roll Zeal against DL 12 to act with your Major Action despite a full Resolve Pool.",
    "end_turn": "End this creature's turn.",
}


def explain(action: str) -> str:
    """The sentence for an action kind; every kind `legal_actions` offers has one (tested)."""
    return EXPLANATIONS.get(action, "")
