"""The forms of the pre-match and post-match steps and of the report.

A typed die is parsed in one place, `DiceField`; an empty die field means "the server rolls it".
Each step form knows its match (and team) and builds its fields from the state the step starts in,
so a die field says which die it wants and only the dice the step can use are asked for.
"""

from matches.forms.fields import (
    DICE_TEXT_MAX,
    DiceField,
    PrefixedForm,
    StepForm,
    StrictCheckbox,
    TickField,
    WholeNumberField,
)
from matches.forms.postmatch import (
    DevelopmentForm,
    EmptyStepForm,
    FanFactorForm,
    InjuriesForm,
    InjuryDiceForm,
    InspiredDevelopmentForm,
    MvpForm,
    RollDevelopmentForm,
    WinningsForm,
)
from matches.forms.prematch import (
    ChefForm,
    GateForm,
    HandicapForm,
    InspireForm,
    NigglingForm,
    SquadForm,
    TicketsForm,
    WeatherForm,
)
from matches.forms.report import (
    COMMENT_MAX,
    COUNTER_MAX,
    SCORE_MAX,
    ApothecaryForm,
    DisputeForm,
    LineForm,
    PhotoForm,
    ScoreForm,
)
from matches.forms.scheduling import AcceptDateForm, BoardDateForm, DeadlineForm, ProposeDatesForm

__all__ = [
    "COMMENT_MAX",
    "COUNTER_MAX",
    "DICE_TEXT_MAX",
    "SCORE_MAX",
    "AcceptDateForm",
    "ApothecaryForm",
    "BoardDateForm",
    "ChefForm",
    "DeadlineForm",
    "DevelopmentForm",
    "DiceField",
    "DisputeForm",
    "EmptyStepForm",
    "FanFactorForm",
    "GateForm",
    "HandicapForm",
    "InjuriesForm",
    "InjuryDiceForm",
    "InspireForm",
    "InspiredDevelopmentForm",
    "LineForm",
    "MvpForm",
    "NigglingForm",
    "PhotoForm",
    "PrefixedForm",
    "ProposeDatesForm",
    "RollDevelopmentForm",
    "ScoreForm",
    "SquadForm",
    "StepForm",
    "StrictCheckbox",
    "TickField",
    "TicketsForm",
    "WeatherForm",
    "WholeNumberField",
    "WinningsForm",
]
