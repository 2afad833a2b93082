package synth

// Word lists the generator draws from. The names are invented combinations
// of common given names and family names; they stand for no real person.

var (
	arabicFirst = []string{
		"Ahmed", "Mohammed", "Omar", "Khaled", "Hassan", "Youssef", "Ali", "Mahmoud",
		"Bassam", "Ammar", "Karim", "Rami", "Hamza", "Ibrahim", "Samer", "Tarek",
		"Zein", "Anas", "Hussein", "Nour", "Layla", "Fatima", "Rania", "Amal",
		"Hala", "Mustafa", "Walid", "Firas", "Jamal", "Yasser", "Saleh", "Abdullah",
	}
	arabicLast = []string{
		"Hassan", "Khalil", "al-Halabi", "Haddad", "Nasser", "al-Masri", "Saleh", "Othman",
		"al-Khatib", "Darwish", "Mansour", "Youssef", "al-Omar", "Ismail", "Hamdan", "Qassem",
		"Ibrahim", "al-Ali", "Suleiman", "Barakat", "al-Hamwi", "Jaber", "Shami", "Aziz",
		"al-Rifai", "Hijazi", "Abdulrahman", "Kanaan", "Sabbagh", "al-Jundi", "Rahal", "Zaher",
	}
	turkishFirst = []string{
		"Mehmet", "Emre", "Murat", "Burak", "Kemal", "Serkan", "Osman", "Can",
		"Elif", "Zeynep", "Ayse", "Umut", "Cem", "Onur", "Yasin", "Baris",
	}
	turkishLast = []string{
		"Yilmaz", "Kaya", "Demir", "Sahin", "Celik", "Yildiz", "Aydin", "Ozturk",
		"Arslan", "Dogan", "Kilic", "Aslan", "Cetin", "Korkmaz", "Ozdemir", "Erdem",
	}
	ukrainianFirst = []string{
		"Oleksandr", "Serhiy", "Andriy", "Dmytro", "Volodymyr", "Yevhen", "Oleh", "Maksym",
		"Olena", "Iryna", "Natalia", "Anastasia", "Viktor", "Bohdan", "Taras", "Yulia",
	}
	ukrainianLast = []string{
		"Kovalenko", "Shevchenko", "Bondarenko", "Tkachenko", "Kravchenko", "Melnyk", "Boyko", "Marchenko",
		"Lysenko", "Rudenko", "Savchenko", "Petrenko", "Klymenko", "Honcharenko", "Moroz", "Polishchuk",
	}
	englishFirst = []string{
		"John", "Michael", "David", "James", "Sarah", "Emma", "Daniel", "Thomas",
		"Laura", "Mark", "Peter", "Anna", "Chris", "Paul", "Kate", "Ben",
	}
	englishLast = []string{
		"Miller", "Taylor", "Walker", "Morgan", "Clarke", "Hughes", "Turner", "Parker",
		"Bennett", "Ward", "Fletcher", "Harris", "Cooper", "Bailey", "Reid", "Porter",
	}
)

// A verb is a verb phrase in its singular and plural forms.
type verb struct{ sg, pl string }

var civilianVerbs = []verb{
	{"walks past damaged buildings", "walk past damaged buildings"},
	{"inspects the damage at the site of an air strike", "inspect the damage at the site of an air strike"},
	{"rides a motorcycle along a damaged street", "ride motorcycles along a damaged street"},
	{"carries belongings through the rubble", "carry belongings through the rubble"},
	{"sits in front of a damaged house", "sit in front of a damaged house"},
	{"looks at the aftermath of shelling", "look at the aftermath of shelling"},
	{"searches for survivors under the rubble", "search for survivors under the rubble"},
	{"waits to receive food aid", "wait to receive food aid"},
	{"clears debris from a street", "clear debris from a street"},
	{"mourns during the funeral of a relative", "mourn during the funeral of a relative"},
	{"plays among the ruins", "play among the ruins"},
	{"is treated at a makeshift hospital", "are treated at a makeshift hospital"},
	{"collects water from a tank", "collect water from a tank"},
	{"flees with belongings after shelling", "flee with belongings after shelling"},
	{"stands near a burning car", "stand near a burning car"},
	{"buys bread at a market", "buy bread at a market"},
	{"reacts after an air strike", "react after an air strike"},
	{"attends a protest against the government", "attend a protest against the government"},
	{"walks through a snow-covered camp", "walk through a snow-covered camp"},
	{"returns home after the fighting", "return home after the fighting"},
}

var fighterVerbs = []verb{
	{"takes position behind sandbags", "take position behind sandbags"},
	{"fires a mortar towards enemy positions", "fire a mortar towards enemy positions"},
	{"holds a weapon at a frontline position", "hold weapons at a frontline position"},
	{"stands next to a destroyed tank", "stand next to a destroyed tank"},
	{"gestures from a pickup truck", "gesture from a pickup truck"},
	{"walks through a damaged street", "walk through a damaged street"},
	{"guards a checkpoint", "guard a checkpoint"},
	{"rests inside a house used as a base", "rest inside a house used as a base"},
	{"fires a machine gun during clashes", "fire a machine gun during clashes"},
	{"patrols a street", "patrol a street"},
	{"loads ammunition onto a truck", "load ammunition onto a truck"},
	{"prays before heading to the front line", "pray before heading to the front line"},
}

// Clauses between the verb phrase and the setting.
var sceneClauses = []string{
	"as fighting continues", "during a lull in the fighting", "after heavy shelling overnight",
	"a day after a ceasefire took effect", "as smoke rises in the distance", "while a convoy passes",
	"after a car bomb exploded", "amid the rubble of destroyed buildings",
}

// Plural and singular subjects that are not an armed group.
var (
	pluralSubjects   = []string{"Civilians", "Residents", "People", "Children", "Rescue workers", "Medics", "Women", "Volunteers", "Men"}
	singularSubjects = []string{"A man", "A woman", "A boy", "A girl", "An elderly man", "A civil defence member", "A child", "A medic"}
)

// Things said about the place in a background sentence.
var (
	numbers = []string{"2,000", "5,000", "12,000", "30,000", "100,000", "250,000", "a million"}
	compass = [8]string{"north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"}
)

// Month names in the three styles: full, AP (abbreviated from August to
// February) and EPA (full, day first).
var (
	monthFull = [13]string{"", "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	monthAP   = [13]string{"", "Jan.", "Feb.", "March", "April", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."}
	weekdays  = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	daysIn    = [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
)

// Term ids drawn from the lexicon, when it has them.
var (
	creditAgencies = []string{"agency:anadolu", "agency:nurphoto", "agency:sopa", "agency:xinhua", "agency:zuma", "agency:sipa", "agency:abaca-press", "agency:imago", "agency:dpa"}
	orgIDs         = []string{"org:un", "org:unhcr", "org:unicef", "org:wfp", "org:icrc", "org:msf", "org:sohr", "org:white-helmets", "org:ocha", "org:who", "org:save-the-children", "org:amnesty", "org:hrw"}
	eventIDs       = []string{"event:ramadan", "event:eid-al-fitr", "event:eid-al-adha", "event:ashura", "event:newroz", "event:christmas", "event:easter"}
)
