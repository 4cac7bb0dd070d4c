"""The held-out split stays honest: no training example is a near copy of a held-out message.

tests/nlu measures how well the model understands wording it has never seen. A training
example that differs from a held-out message by a letter or two turns that measurement into a
memory test, so this fails as soon as one slips into data/nlu (docs/NLU.md, "Held-out split").
"""

from functools import cache
from pathlib import Path

import pytest
from rasa.shared.nlu.training_data.loading import load_data

from kernel.lang.normalise import normalise

ROOT = Path(__file__).resolve().parents[2]
HELD_OUT = sorted((ROOT / "tests" / "nlu" / "heldout").glob("*.yml"))
#: Character-trigram Jaccard similarity at or above which two messages count as one.
NEAR = 0.7


def trigrams(text: str) -> frozenset[str]:
    """Character trigrams of the normalised text, padded so short words have some too."""
    padded = f"  {normalise(text)} "
    return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


@cache
def training_texts() -> tuple[str, ...]:
    data = load_data(str(ROOT / "data" / "nlu"))
    return tuple(sorted({m.get("text") for m in data.intent_examples}))


def near_copies(held_out: list[str], training: tuple[str, ...]) -> list[tuple[str, str, float]]:
    """(held-out, training, similarity) for every pair at or above NEAR."""
    train_grams = [(text, trigrams(text)) for text in training]
    found = []
    for message in held_out:
        grams = trigrams(message)
        for text, other in train_grams:
            # |A∩B| ≤ min(|A|,|B|) and |A∪B| ≥ max(|A|,|B|): skip pairs that cannot reach NEAR.
            if min(len(grams), len(other)) < NEAR * max(len(grams), len(other)):
                continue
            similarity = jaccard(grams, other)
            if similarity >= NEAR:
                found.append((message, text, round(similarity, 2)))
    return found


def test_similarity_measure() -> None:
    assert jaccard(trigrams("parwaz kay ast"), trigrams("parwaz kay ast")) == 1.0
    assert jaccard(trigrams("parwaz kay ast"), trigrams("Parwaz  kay ast")) == 1.0
    assert jaccard(trigrams("parwaz ba doha kay ast"), trigrams("parwaz ba doha kai ast")) >= NEAR
    assert jaccard(trigrams("پرواز كي است"), trigrams("پرواز کی است")) == 1.0  # ك ي folded
    assert jaccard(trigrams("parwaz kay ast"), trigrams("darwaza baz ast?")) < NEAR


def test_near_copies_are_found() -> None:
    training = ("parwaz ba doha kay ast", "darwaza baz as")
    assert near_copies(["parwaz ba doha kai ast"], training) == [
        ("parwaz ba doha kai ast", "parwaz ba doha kay ast", 0.77)
    ]
    assert near_copies(["salam"], ("salam alaikum",)) == []


@pytest.mark.parametrize("path", HELD_OUT, ids=lambda p: p.stem)
def test_no_training_example_is_near_a_held_out_message(path: Path) -> None:
    held_out = [m.get("text") for m in load_data(str(path)).intent_examples]
    assert held_out, f"{path.name} is empty"
    copies = near_copies(held_out, training_texts())
    assert not copies, "training examples near held-out messages (held-out, training, J):\n" + (
        "\n".join(map(str, copies))
    )
