"""Every reply Rasa renders names the language it is written in, so no channel guesses it."""

from pathlib import Path
from typing import Any

import pytest
import yaml
from rasa.core.actions.action import create_bot_utterance
from rasa.core.channels.channel import OutputChannel
from rasa.core.nlg import NaturalLanguageGenerator
from rasa.shared.core.domain import Domain
from rasa.shared.core.events import SlotSet
from rasa.shared.core.trackers import DialogueStateTracker
from rasa.utils.endpoints import EndpointConfig

from bot.nlg import LanguageTaggedResponses
from kernel import contract
from kernel.contract import reply_language

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = Domain.load(str(ROOT / "bot" / "domain"))
NLG = LanguageTaggedResponses(domain=DOMAIN)
CHANNELS = sorted(contract.CHANNELS)


def tracker(language: str | None) -> DialogueStateTracker:
    events = [SlotSet("language", language)] if language else []
    return DialogueStateTracker.from_events("c1", events, slots=DOMAIN.slots)


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize("language", ["en", "prs", "ps"])
async def test_every_response_on_every_channel_names_the_language_of_the_conversation(
    language: str, channel: str
) -> None:
    wrong = []
    for response in DOMAIN.responses:
        message = await NLG.generate(response, tracker(language), channel)
        if message is None or reply_language(message) != language:
            wrong.append(response)
    assert wrong == []


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
async def test_kannel_answers_with_the_sms_forms_of_every_response(language: str) -> None:
    for response in DOMAIN.responses:
        kannel = await NLG.generate(response, tracker(language), "kannel")
        gateway = await NLG.generate(response, tracker(language), "sms_gateway")
        assert kannel is not None and gateway is not None
        assert kannel["text"] == gateway["text"], response
    menu = await NLG.generate("utter_menu", tracker(language), "kannel")
    chat = await NLG.generate("utter_menu", tracker(language), "telegram")
    assert menu is not None and chat is not None and menu["text"] != chat["text"]


async def test_a_conversation_without_a_language_is_answered_and_tagged_in_english() -> None:
    message = await NLG.generate("utter_airport_status_unknown", tracker(None), "telegram")
    assert message is not None
    assert message["text"].startswith("I have no current information")
    assert message["metadata"] == {"language": "en"}


class RecordingOutput(OutputChannel):
    """An output channel that keeps what Rasa hands to ``send_text_message``."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def send_text_message(self, recipient_id: str, text: str, **kwargs: Any) -> None:
        self.sent.append((text, kwargs))


async def test_the_tag_reaches_the_output_channel_as_rasa_sends_it() -> None:
    rendered = await NLG.generate("utter_airport_status_unknown", tracker("ps"), "telegram")
    assert rendered is not None
    written = rendered["text"]
    output = RecordingOutput()
    # What Rasa does with a rendered response: an event, its message, the output channel.
    await output.send_response("c1", create_bot_utterance(rendered).message())
    [(text, kwargs)] = output.sent
    assert text == written
    assert reply_language(kwargs) == "ps"


@pytest.mark.parametrize("endpoints", ["endpoints.yml", "endpoints.production.yml"])
def test_both_profiles_use_the_tagging_generator(endpoints: str) -> None:
    config = yaml.safe_load((ROOT / endpoints).read_text(encoding="utf-8"))
    generator = NaturalLanguageGenerator.create(EndpointConfig.from_dict(config["nlg"]), DOMAIN)
    assert isinstance(generator, LanguageTaggedResponses)
