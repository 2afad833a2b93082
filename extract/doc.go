// Package extract turns news-photo captions into typed entities and relations.
//
// Wire captions are formulaic, so the extractor is built from caption grammar
// and gazetteers rather than a statistical model:
//
//  1. The credit line ("REUTERS/Name", "(AP Photo/Name)", "/ AFP / NAME",
//     "Name/AFP/Getty Images", ...) is parsed off the end of the caption into
//     PHOTOGRAPHER and AGENCY entities.
//  2. Dates are found by a hand-written scanner (month names, day and year
//     shapes) and normalised to ISO 8601 with a precision.
//  3. The description is tokenised once; a token trie built from the
//     gazetteer (places, armed groups, organisations, agencies, events)
//     finds the longest known names in one pass. Names no table holds are
//     proposed, with a lower confidence, from their grammar: a head noun
//     that types an official name ("Rustaveli Avenue", "Election
//     Commission of India", "41st Mechanised Brigade", "48th Berlin
//     Marathon", "Operation Sea Breeze", "Mount Suribachi"; headed.go), a
//     generic that opens a foreign street ("plaza de Mayo"), a lower-case
//     facility noun after a name ("the Bataclan concert hall"), a quoted
//     name before an event noun, a city and a plural ("the Denver
//     Nuggets"), and the words around a person's name (a title, with its
//     of-phrase, an age, "the arrest of X", a kinship noun, an apposition
//     of a role). Where names collide, a division weighs the towns it
//     holds and a city comes before the division of its name.
//  4. Relations come from the sentence patterns wire captions use:
//     "X neighbourhood of Y", "X, Y, Syria" chains, "controlled by",
//     "rebel-held X", "<group> took control of the town", "A <group>
//     fighter", "<person>, leader of <group>", "<event> final at <place>",
//     the dateline's place and date.
//
// Offsets in the output are Unicode code points, half-open.
package extract
