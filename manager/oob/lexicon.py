"""The words orders of battle are written in: troop types, qualities, measures, headings.

Everything is matched on a folded form (lower case, accents and umlauts dropped, `ae`
for `ä` accepted too), so "Jäger", "Jaeger" and "jager" are one word. A troop word one
letter off a known word ("infantery") is read as that word and the reading is reported:
an import never guesses silently.
"""
from __future__ import annotations

import unicodedata

# folded word -> (arm, generic kind, traits). Multi-word entries are matched first.
TROOPS: dict[str, tuple[str, str, tuple]] = {}


def _add(arm, kind, traits, *words):
    for w in words:
        TROOPS[w] = (arm, kind, tuple(traits))


_add("infantry", "line_infantry", (), "line", "ligne", "line infantry", "infantry", "inf",
     "musketeers", "musketeer", "fusiliers", "fusilier", "regulars", "foot", "linie",
     "infanterie", "line foot")
_add("infantry", "light_infantry", (), "light", "legere", "light infantry", "leger",
     "voltigeurs", "chasseurs a pied", "chasseurs", "light foot", "tirailleurs")
_add("infantry", "grenadiers", (), "grenadiers", "grenadier", "grenzer grenadiers",
     "combined grenadiers", "elite companies")
_add("infantry", "guard_infantry", (), "guard infantry", "foot guards", "guard foot",
     "old guard", "young guard", "middle guard", "guards")
_add("infantry", "militia", (), "militia", "landwehr", "national guard", "volunteers",
     "levee", "opolchenie", "provisional")
_add("infantry", "rifles", (), "rifles", "rifle", "jager", "jaeger", "jagers", "jaegers",
     "schutzen", "riflemen", "carabiniers a pied")
_add("infantry", "skirmishers", (), "skirmishers", "skirmisher", "sharpshooters",
     "light companies")
_add("cavalry", "light_cavalry", (), "light cavalry", "hussars", "hussar", "chasseurs a cheval",
     "light dragoons", "chevau-legers", "chevaulegers", "cossacks", "cossack", "light horse",
     "mounted rifles")
_add("cavalry", "light_cavalry", ("lancers",), "lancers", "lancer", "uhlans", "uhlan",
     "chevau-legers lanciers", "lanciers")
# Dragoons and other medium horse: two-weight rulesets count them as heavy (reported).
_add("cavalry", "heavy_cavalry", (), "heavy cavalry", "dragoons", "dragoon", "medium cavalry",
     "heavy horse", "horse grenadiers", "carabiniers", "kurassiere", "heavy dragoons")
_add("cavalry", "heavy_cavalry", ("armoured",), "cuirassiers", "cuirassier", "kurassier",
     "cuirassiers regiment")
_add("cavalry", "guard_cavalry", (), "guard cavalry", "horse guards", "life guards",
     "chevaliers gardes", "guard horse", "gardes du corps")
_add("artillery", "foot_artillery", (), "foot artillery", "artillery", "foot battery",
     "battery", "bty", "guns", "field battery", "field artillery", "position battery",
     "medium foot artillery", "light foot artillery", "artillerie")
_add("artillery", "horse_artillery", (), "horse artillery", "horse battery",
     "medium horse artillery", "light horse artillery", "heavy horse artillery")
_add("artillery", "heavy_artillery", (), "heavy artillery", "heavy battery",
     "heavy foot artillery", "reserve artillery", "12pdr battery", "heavy foot")
# plain "cavalry"/"horse" keep the arm; the weight is then unknown and reported
_add("cavalry", "light_cavalry", ("?weight",), "cavalry", "horse", "cav")

# Words that mark a Guard formation or element whatever its troop word.
GUARD_WORDS = {"guard", "guards", "garde", "imperial guard", "leib"}

# Battery codes: weight + arm (HvF heavy foot, MdH medium horse ...).
BATTERY_CODES = {
    "hvf": "heavy_artillery", "mdf": "foot_artillery", "ltf": "foot_artillery",
    "hvh": "horse_artillery", "mdh": "horse_artillery", "lth": "horse_artillery",
    "hf": "heavy_artillery", "mf": "foot_artillery", "lf": "foot_artillery",
    "hh": "horse_artillery", "mh": "horse_artillery", "lh": "horse_artillery",
}

# Quality words, folded -> the import's quality; guard/elite/veteran/... and the unit trait.
QUALITIES = {
    "elite": "elite", "guard": "elite", "veteran": "veteran", "veterans": "veteran",
    "vet": "veteran", "experienced": "veteran", "crack": "elite", "regular": "regular",
    "trained": "regular", "average": "regular", "green": "green", "raw": "green",
    "conscript": "conscript", "conscripts": "conscript", "recruits": "conscript",
    "militia": "militia", "poor": "green",
}
QUALITY_TRAIT = {"elite": "veteran", "veteran": "veteran", "green": "conscript",
                 "conscript": "conscript"}

# Measures a listing counts in, folded -> canonical name.
MEASURES = {
    "base": "bases", "bases": "bases", "stand": "bases", "stands": "bases",
    "bn": "battalions", "bns": "battalions", "btn": "battalions", "btns": "battalions",
    "bat": "battalions", "bats": "battalions", "battalion": "battalions",
    "battalions": "battalions", "bataillon": "battalions", "bataillons": "battalions",
    "sqn": "squadrons", "sqns": "squadrons", "sqdn": "squadrons", "sqdns": "squadrons",
    "squadron": "squadrons", "squadrons": "squadrons", "escadron": "squadrons",
    "escadrons": "squadrons",
    "battery": "batteries", "batteries": "batteries", "bty": "batteries", "btys": "batteries",
    "btty": "batteries", "company": "batteries", "companies": "batteries",
    "gun": "guns", "guns": "guns", "cannon": "guns", "pieces": "guns",
    "man": "men", "men": "men", "sabres": "men", "sabers": "men", "bayonets": "men",
    "unit": "units", "units": "units",
}
MEASURE_ARM = {"squadrons": "cavalry", "batteries": "artillery", "guns": "artillery",
               "battalions": "infantry", "sabres": "cavalry"}

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a": 1,
                "an": 1, "single": 1}

# Heading words: the level of a formation. Matched as whole folded words.
LEVELS = {
    "army": "army", "armee": "army", "armies": "army", "host": "army",
    "corps": "corps", "wing": "corps", "column": "corps", "reserve": "corps",
    "vanguard": "corps", "advance guard": "corps", "advanced guard": "corps",
    "division": "division", "div": "division", "divisions": "division",
    "brigade": "brigade", "bde": "brigade", "brig": "brigade",
    "regiment": "regiment", "regt": "regiment", "rgt": "regiment",
}
LEVEL_RANK = {"army": 0, "corps": 1, "division": 2, "brigade": 3, "regiment": 4}

# Nations, as directives (`!French 1806`) or words in army headings.
NATIONS = {
    "french": "france", "france": "france", "british": "britain", "britain": "britain",
    "english": "britain", "anglo-allied": "britain", "austrian": "austria",
    "austria": "austria", "russian": "russia", "russia": "russia", "prussian": "prussia",
    "prussia": "prussia", "spanish": "spain", "spain": "spain", "portuguese": "portugal",
    "portugal": "portugal", "bavarian": "bavaria", "bavaria": "bavaria", "saxon": "saxony",
    "saxony": "saxony", "swedish": "sweden", "sweden": "sweden", "dutch": "netherlands",
    "netherlands": "netherlands", "italian": "italy", "neapolitan": "naples",
    "polish": "poland", "westphalian": "westphalia", "wurttemberg": "wurttemberg",
    "allied": "allied", "hanoverian": "hanover", "brunswick": "brunswick",
}
# In headings only the adjectives name a nation: "Army of Portugal" was French.
NATION_ADJECTIVES = {k: v for k, v in NATIONS.items() if k.endswith(("ch", "sh", "an", "ian",
                                                                      "ese", "ss", "on"))}
NATION_ARMY = {"france": "French Army", "britain": "British Army", "austria": "Austrian Army",
               "russia": "Russian Army", "prussia": "Prussian Army", "spain": "Spanish Army",
               "portugal": "Portuguese Army"}

ABSENT_WORDS = ("absent", "detached", "not present", "elsewhere", "garrison of")
UNKNOWN_LEADER = ("leader unknown", "unknown", "commander unknown", "?", "n/a", "vacant")


def fold(text: str) -> str:
    """Lower case without accents; umlauts also written out so 'jäger' == 'jaeger' works."""
    if text.isascii():
        return text.lower()
    text = text.lower().replace("ß", "ss")
    nfkd = unicodedata.normalize("NFKD", text)
    return "".join(c for c in nfkd if not unicodedata.combining(c))


def near(word: str, known) -> str | None:
    """A known word one edit (two for long words) from `word`, when exactly one is."""
    if len(word) < 5:
        return None
    limit = 2 if len(word) >= 9 else 1
    scored = sorted((_distance(word, k, limit), k) for k in known
                    if abs(len(k) - len(word)) <= limit and " " not in k)
    scored = [s for s in scored if s[0] <= limit]
    if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None                      # nothing near, or two equally near: no guess
    return scored[0][1]


def _distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance, stopped once it exceeds `limit`."""
    prev2, prev = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if (prev2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb):
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


TROOP_WORDS = sorted({w for k in TROOPS for w in k.split()} | set(MEASURES) | set(QUALITIES))
