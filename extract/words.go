package extract

// Word lists the caption grammar uses. They are about English and wire
// style, never about particular captions.

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// commonWords are capitalised words that open caption sentences or name
// nationalities. A gazetteer happens to have villages called many of them,
// so a single-word place match on one is not trusted.
var commonWords = set(
	"a", "an", "the", "this", "that", "these", "those", "his", "her", "their", "its", "our", "my",
	"he", "she", "they", "it", "we", "i", "you", "there", "here", "some", "many", "most", "all",
	"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "several",
	"men", "man", "women", "woman", "boy", "boys", "girl", "girls", "child", "children", "people",
	"members", "member", "fighters", "fighter", "soldiers", "soldier", "rebels", "rebel", "residents",
	"civilians", "medics", "workers", "supporters", "protesters", "demonstrators", "mourners",
	"relatives", "refugees", "families", "family", "smoke", "fire", "fires", "bodies", "body",
	"picture", "photo", "file", "warning", "graphic", "content", "topshot", "editors", "note",
	"general", "view", "aerial", "police", "troops", "forces", "army", "opposition", "government",
	"regime", "islamist", "islamists", "militants", "jihadists", "insurgents", "activists",
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
	"syrian", "syrians", "iraqi", "iraqis", "kurdish", "kurds", "turkish", "turks", "lebanese",
	"yemeni", "yemenis", "libyan", "libyans", "ukrainian", "ukrainians", "russian", "russians",
	"iranian", "american", "americans", "british", "french", "german", "israeli", "palestinian",
	"palestinians", "jordanian", "saudi", "egyptian", "arab", "arabs", "afghan", "european",
	"sunni", "shiite", "shia", "muslim", "muslims", "christian", "christians", "alawite", "druze",
	"yazidi", "yazidis", "turkmen", "armenian", "chinese", "african", "western", "eastern",
	"northern", "southern", "central", "new", "old", "free", "united", "national", "international",
	"street", "city", "town", "village", "market", "camp", "border", "hospital", "school", "mosque",
	"church", "square", "bridge", "road", "river", "mount", "lake", "sea", "port", "airport",
	"after", "before", "during", "while", "as", "at", "in", "on", "of", "for", "with", "from", "by",
	"near", "and", "but", "or", "if", "when", "where", "who", "what", "which", "why", "how",
	"reuters", "president", "minister", "king", "prince", "leader", "commander",
	"mother", "father", "brother", "sister", "son", "daughter", "wife", "husband",
	"young", "little", "elderly", "injured", "wounded", "displaced", "local", "dead", "killed",
	"smoke", "dust", "flames", "tanks", "tank", "aid", "food", "water", "life", "war", "peace",
	"victory", "hope", "love", "home", "liberty", "independence", "freedom", "union", "congress",
	"mercy", "paradise", "heaven", "rainbow", "success", "march", "may", "august", "june", "july",
	"de", "la", "le", "el", "al", "ad", "as", "ash", "an", "ar", "at", "az",
	"von", "van", "der",
)

// Lower-case words that may stand inside a place's name: "Gulf of Aden",
// "Bosnia and Herzegovina".
var nameConnectors = set("of", "and", "the", "on", "upon", "sur", "en", "y", "e", "i", "do", "das", "dos")

// Generic words that follow a place name without being part of it:
// "Ratian village", "Tabqa air base", "al-Mallah farms".
var placeGenerics = set(
	"neighbourhood", "neighborhood", "neighbourhoods", "neighborhoods", "district", "districts",
	"village", "villages", "town", "city", "area", "areas", "countryside", "camp", "province",
	"governorate", "region", "suburb", "suburbs", "base", "farms", "farm", "mosque", "street",
	"market", "crossing", "valley", "square", "quarter", "frontline", "front",
	"highway", "road", "stadium", "prison", "airport", "port", "hospital", "checkpoint", "hill",
	"mountain", "mountains", "river", "dam", "desert", "plain", "plains", "border", "municipality",
	"oblast", "state", "county", "island", "refinery", "field", "oilfield", "gate", "citadel",
	"park", "bridge", "plant", "factory", "works", "complex", "compound",
	"township", "townships", "territory", "division", "raion", "cercle", "commune", "prefecture",
	"department", "locality", "subdistrict", "sub-district", "site", "shrine", "building", "buildings", "tower", "hall",
	"settlement", "settlements", "microdistrict", "micro-district", "coast", "shore", "beach", "residence",
)

// Words that may stand between a place name and its generic word:
// "Bab al-Salam refugee camp", "Tabqa military air base".
var genericModifiers = set("refugee", "idp", "idps", "military", "air", "border", "old", "ancient", "main", "steel", "power", "chemical", "cement",
	"displacement", "detention", "industrial", "residential", "street", "oil", "gas", "archaeological")

// Adjectives of direction and position that stand before a place.
var directionWords = set(
	"north", "south", "east", "west", "northern", "southern", "eastern", "western", "central",
	"northeastern", "northwestern", "southeastern", "southwestern", "northeast", "northwest",
	"southeast", "southwest", "upper", "lower", "greater", "rural", "besieged", "ancient",
	"coastal", "nearby", "neighbouring", "neighboring", "surrounding", "embattled", "downtown", "uptown",
)

// Compass adjectives that may open a regional name: "eastern Ghouta".
var compassWords = set("eastern", "western", "northern", "southern", "central", "north", "south", "east", "west")

// Words that mark a place as a reference point, not a container or a setting
// in its own right.
var anchorWords = set("near", "outside", "beside", "outskirts", "north", "south", "east", "west",
	"northeast", "northwest", "southeast", "southwest", "northeastern", "northwestern",
	"southeastern", "southwestern", "northern", "southern", "eastern", "western", "around", "off", "close",
	"edge", "edges", "fringes", "outskirts")

// Words that make the place after them a reference point: "near X".
var nearWords = set("near", "outside", "beside", "around", "off", "close", "outskirts", "nearby")

// Prepositions and verbs after which a place is not where the photo was taken.
var notSettingWords = set("from", "towards", "toward", "to", "into", "against", "by", "with", "opposite",
	"fled", "flee", "fleeing", "between", "for", "and", "than", "leaving", "left")

// Prepositions after which a place is the setting.
var settingWords = set("in", "at", "inside", "on", "over", "within", "overlooking", "overlook", "overlooks", "of",
	"through", "along", "amid", "among", "throughout", "across")

// Verbs after which "from X" names what is shown: "smoke rises from X".
var emissionVerbs = set("rises", "rise", "rising", "billows", "billow", "billowing", "pours", "erupts", "emerges")

// Words that open a relative clause: a place inside one describes
// something, it is not the scene.
var relativeWords = set("which", "who", "whose", "where", "whom")

// Participles that open a side phrase between two chained places.
var sideParticiples = set("held", "controlled", "recaptured", "retaken", "captured", "seized", "besieged",
	"surrounded", "backed", "shelled", "hit", "bombed", "liberated", "overrun", "encircled")

// Adjectives of a place's status that stand before its name without being
// part of it: "the occupied West Bank", "restive Balochistan", "war-torn Sudan".
var statusAdjectives = set("occupied", "annexed", "disputed", "breakaway", "restive", "torn", "ravaged",
	"stricken", "hit", "affected", "hit-hard", "impoverished", "volatile", "troubled", "lawless")

// Adjectives of rank and position in appositions: "Waer, the last
// opposition-held district of Homs".
var appositiveAdjectives = set("last", "only", "first", "main", "largest", "biggest", "second", "third",
	"northernmost", "southernmost", "easternmost", "westernmost", "provincial", "regional", "administrative",
	"commercial", "economic", "political", "de-facto",
	"former", "de", "facto", "key", "strategic", "historic", "remote", "small", "tiny", "large", "big",
	"predominantly", "mostly", "mainly", "majority", "kurdish-majority", "frontline", "nearby", "sprawling")

// Countries whose first-level divisions captions name bare ("Idlib",
// "Donetsk"): a division name there is trusted next to another capital.
var regionCountries = set("SY", "IQ", "TR", "LB", "JO", "YE", "LY", "UA", "IL", "PS", "AF", "IR", "SA", "EG")

// Nouns that make one group part of another: "a faction of the FSA".
var partNouns = set("part", "faction", "wing", "unit", "branch", "affiliate", "offshoot", "member",
	"brigade", "component", "arm", "division", "franchise", "subsidiary", "ally", "coalition")

// Words that open a subordinate clause.
var subordinators = set("after", "as", "while", "when", "before", "since", "until", "because", "although",
	"which", "who", "whom", "where", "whose", "though", "once")

// Role nouns that are members of an armed group (member_of subjects).
var roleWords = set(
	"fighter", "fighters", "member", "members", "soldier", "soldiers", "militant", "militants",
	"follower", "followers", "rebel", "rebels", "commander", "commanders", "sniper", "snipers",
	"gunman", "gunmen", "recruit", "recruits", "volunteer", "volunteers", "officer", "officers",
	"policeman", "policemen", "troops", "trooper", "guard", "guards", "jihadist", "jihadists",
	"insurgent", "insurgents", "combatant", "combatants", "loyalist", "loyalists",
	"technician", "technicians", "pilot", "pilots", "engineer", "engineers", "serviceman", "servicemen",
	"servicewoman", "marine", "marines", "paratrooper", "paratroopers", "sapper", "sappers",
	"gunner", "gunners", "conscript", "conscripts", "reservist", "reservists", "cadet", "cadets",
	"personnel", "operative", "operatives",
)

// Unit words that end an armed group's name: "Sultan Murad brigade".
var unitWords = set("brigade", "brigades", "battalion", "battalions", "movement", "front",
	"regiment", "division", "corps", "militia", "committees", "legion", "army", "forces", "units",
	"group", "guards", "liwa", "katibat", "faction")

// Unit words that belong to the group name before them when written
// after it: "Sultan Murad brigade", "Houthi movement".
var nameUnitWords = set("brigade", "brigades", "battalion", "battalions", "movement", "regiment", "legion", "liwa", "katibat",
	"gang", "cartel", "alliance", "militia", "unit")

// Arabic words that open armed groups' names: "Faylaq al-Sham", "Jaish
// al-Islam", "Liwa al-Quds".
var groupHeads = set("faylaq", "failaq", "jaish", "jaysh", "liwa", "harakat", "jabhat", "kataib",
	"ansar", "saraya", "firqat", "jund", "tajammu", "hayat", "quwat", "asaib")

// Capitalised generic words that end a place's name: "Nef Stadium",
// "National Hospital", "Umayyad Square".
var placeHeads = set("stadium", "mosque", "hospital", "square", "airport", "bridge", "palace", "prison",
	"camp", "citadel", "castle", "church", "cathedral", "museum", "market", "souk", "university",
	"dam", "port", "harbour", "harbor", "base", "airbase", "gate", "park", "plant", "refinery",
	"tower", "towers", "arena", "cemetery", "hotel", "school", "field", "valley", "mountain", "hill",
	"island", "lake", "river", "desert", "plain", "street", "road", "highway", "crossing", "district")

// Lower-case nouns of events that a name before them names: "the Maha
// Kumbh Mela festival". Not "campaign", "rally" or "protest", which a
// person's surname more often stands before.
var namedEventNouns = set("exercise", "exercises", "drill", "drills", "festival", "marathon",
	"tournament", "summit", "conference", "forum", "offensive", "pilgrimage")

// Lower-case nouns of buildings and sites after a name: "the Bataclan
// concert hall", "the Westgate shopping mall". Not "plant" or "factory",
// which a company's name usually stands before.
var facilityNouns = set("stadium", "mosque", "hospital", "square", "airport", "bridge", "palace", "prison",
	"citadel", "castle", "church", "cathedral", "museum", "market", "souk", "university", "dam", "port",
	"harbour", "harbor", "airbase", "refinery", "tower", "arena", "cemetery", "hotel", "school", "clinic",
	"mall", "centre", "center", "theatre", "theater", "station", "hall", "complex", "compound", "building",
	"campus", "college", "temple", "synagogue", "monastery", "library", "courthouse", "ground")

// Words that end an organisation's name: "Prigozhin Press Service".
var orgHeads = set("service", "ministry", "committee", "commission", "council", "office", "agency",
	"authority", "organization", "organisation", "foundation", "society", "association", "institute",
	"federation", "fund", "programme", "program", "network", "observatory", "center", "centre",
	"crescent", "cross", "union", "league", "party", "club", "assembly", "parliament", "court",
	"bank", "company", "corporation", "group", "press", "television", "tv", "radio", "news",
	"administration", "directorate", "department", "secretariat", "commissioner", "exchange")

// Words that end a media outlet's name in a credit: "Shaam News Network".
var mediaHeads = set("news", "tv", "television", "media", "network", "agency", "radio", "channel", "photos", "pictures", "images")

// Titles that stand before a person's name, outside its span.
var titleWords = set(
	"president", "presidents", "minister", "king", "queen", "prince", "princess", "emir", "sheikh",
	"pope", "general", "gen", "brigadier", "colonel", "col", "commander", "lieutenant", "major",
	"captain", "sergeant", "mr", "mrs", "ms", "dr", "leader", "chancellor", "senator", "governor",
	"ayatollah", "imam", "patriarch", "secretary", "envoy", "spokesman", "spokeswoman", "mayor",
	"chief", "coach", "striker", "goalkeeper", "midfielder", "defender", "player", "activist",
	"cleric", "sultan", "crown", "premier", "ambassador", "marshal", "photographer", "journalist",
	"reporter", "director", "founder", "ruler", "dictator", "strongman", "counterpart",
	"quarterback", "forward", "winger", "captain", "manager", "champion", "boxer", "tennis",
	"golfer", "driver", "cyclist", "runner", "footballer", "star", "legend", "veteran", "official",
	"negotiator", "mufti", "emir", "caliph", "singer", "actor", "actress", "artist", "writer",
	"deputy", "boss", "kingpin", "warlord", "chairman", "chairwoman", "chairperson", "spokesperson",
	"lawmaker", "speaker", "judge", "prosecutor", "archbishop", "bishop", "rabbi", "pastor", "priest",
	"commissioner", "administrator", "lt", "sgt", "capt", "maj", "brig", "adm", "admiral",
	"vice", "prime", "cardinal", "ecumenical", "emperor", "empress", "staff", "demonstrator",
	"protester", "survivor", "student", "resident", "voter", "candidate", "nominee", "defendant",
	"suspect", "victim", "migrant", "refugee", "climber", "athlete", "sprinter", "swimmer",
	"elect", "incumbent", "lady", "hostage", "laureate", "rapper", "musician", "author", "novelist",
	"poet", "filmmaker", "billionaire", "businessman", "businesswoman", "tycoon", "dissident",
	"blogger", "comedian", "presenter", "broadcaster", "lawyer", "attorney", "astronaut", "gymnast",
	"wrestler", "skier", "jockey",
)

// Kinship and company nouns after which a name is a person:
// "her sister Marwa".
var kinWords = set("sister", "brother", "son", "daughter", "mother", "father", "wife", "husband",
	"friend", "cousin", "uncle", "aunt", "grandmother", "grandfather", "grandson", "granddaughter",
	"nephew", "niece", "child", "baby", "teammate", "partner", "colleague")

// Verbs of contact: their object is in the picture too.
var contactVerbs = set("embraces", "hugs", "kisses", "greets", "meets", "consoles", "comforts",
	"congratulates", "celebrates", "talks", "speaks", "shakes", "yells", "argues", "holds", "carries",
	"helps", "joins", "visits", "looks", "chats", "poses", "walks", "stands", "sits", "listens", "welcomes")

// Participles of a passive holder: "X, held by <group>".
var passiveHeld = set("controlled", "held", "retaken", "recaptured", "captured", "seized", "run", "overrun", "occupied")

// Verbs of an active holder: "<group> has controlled X".
var activeHeld = set("controlled", "held", "controls", "holds", "control", "hold", "occupies", "occupied", "runs")

// "<subject> took control of X".
var controlVerbs = set("took", "take", "taken", "takes", "gained", "seized", "retook", "regained", "wrested", "won", "assumed")

// "<subject> recaptured X".
var captureVerbs = set("recaptured", "captured", "retook", "liberated", "overran", "seized")

// Generic areas that leave a held area unnamed: "a rebel-held area of Aleppo".
var unnamedAreas = set("area", "areas", "part", "parts", "countryside", "outskirts", "suburbs", "region",
	"pocket", "pockets", "enclave", "territory", "territories", "districts", "neighbourhoods", "neighborhoods")
