package render

import "unicode"

// clusterClass is a rune's Grapheme_Cluster_Break property (UAX #29,
// table 2), with the Extended_Pictographic runes of emoji-data.txt and
// the Indic_Conjunct_Break consonants and linkers of
// DerivedCoreProperties.txt told apart from the rest of Other and Extend,
// so that one value serves each of the rules GB3-GB13.
type clusterClass uint8

const (
	clOther        clusterClass = iota
	clCR                        // U+000D
	clLF                        // U+000A
	clControl                   // GB4, GB5
	clExtend                    // GB9: Grapheme_Extend or Emoji_Modifier
	clLinker                    // Extend and InCB=Linker (a virama of GB9c)
	clZWJ                       // U+200D
	clRegional                  // GB12, GB13
	clPrepend                   // GB9b
	clSpacingMark               // GB9a
	clL                         // Hangul leading consonant (jamo)
	clV                         // Hangul vowel
	clT                         // Hangul trailing consonant
	clLV                        // Hangul syllable without a final
	clLVT                       // Hangul syllable with one
	clPictographic              // Other and Extended_Pictographic (GB11)
	clConsonant                 // Other and InCB=Consonant (GB9c)
)

// zwj is the zero-width joiner, which joins the emoji on either side of it.
const zwj = '\u200d'

// classify returns the class of r. The standard library's tables are
// Unicode's version unicode.Version (15.0.0 in Go 1.26); the tables it
// lacks are written below by hand.
func classify(r rune) clusterClass {
	if r < 0x300 { // Latin, with no mark, prepend or Hangul among them
		switch {
		case r == '\r':
			return clCR
		case r == '\n':
			return clLF
		case r < 0x20, 0x7F <= r && r < 0xA0, r == 0xAD: // Cc, and the soft hyphen (Cf)
			return clControl
		case r == 0xA9, r == 0xAE:
			return clPictographic
		}
		return clOther
	}
	switch {
	case r == zwj:
		return clZWJ
	case 0x1F1E6 <= r && r <= 0x1F1FF:
		return clRegional
	case 0x1F3FB <= r && r <= 0x1F3FF: // Emoji_Modifier: the skin tones
		return clExtend
	case 0xAC00 <= r && r <= 0xD7A3: // Hangul syllables: LV every 28th
		if (r-0xAC00)%28 == 0 {
			return clLV
		}
		return clLVT
	case 0x1100 <= r && r <= 0x115F, 0xA960 <= r && r <= 0xA97C:
		return clL
	case 0x1160 <= r && r <= 0x11A7, 0xD7B0 <= r && r <= 0xD7C6:
		return clV
	case 0x11A8 <= r && r <= 0x11FF, 0xD7CB <= r && r <= 0xD7FB:
		return clT
	}
	if inTable(r, incbLinker) {
		return clLinker
	}
	if unicode.In(r, unicode.Mn, unicode.Me, unicode.Other_Grapheme_Extend) {
		return clExtend // Grapheme_Extend
	}
	if unicode.Is(unicode.Prepended_Concatenation_Mark, r) || inTable(r, prependLetters) {
		return clPrepend
	}
	if isControl(r) {
		return clControl
	}
	if r == 0x0E33 || r == 0x0EB3 || unicode.Is(unicode.Mc, r) && !inTable(r, notSpacingMark) {
		return clSpacingMark
	}
	if inTable(r, incbConsonant) {
		return clConsonant
	}
	if inTable(r, extendedPictographic) {
		return clPictographic
	}
	return clOther
}

// isControl reports whether r is Control: a line or paragraph separator,
// a control, a format character (U+200C and U+200D are Extend and ZWJ, and
// the Prepended_Concatenation_Mark ones Prepend, all taken before), a
// surrogate, or an unassigned default-ignorable code point.
func isControl(r rune) bool {
	if unicode.In(r, unicode.Zl, unicode.Zp, unicode.Cc, unicode.Cf, unicode.Cs) {
		return true
	}
	return unicode.Is(unicode.Cn, r) && unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

// inTable reports whether r is in one of t's ranges, which are sorted
// and apart.
func inTable(r rune, t []runeRange) bool {
	lo, hi := 0, len(t)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case r < t[m].lo:
			hi = m
		case r > t[m].hi:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// runeRange is the runes lo to hi, both included.
type runeRange struct{ lo, hi rune }

// prependLetters are the Prepend runes that are not
// Prepended_Concatenation_Mark (which the standard library has): those
// of Indic_Syllabic_Category Consonant_Preceding_Repha or
// Consonant_Prefixed, from GraphemeBreakProperty.txt of Unicode 15.0.
var prependLetters = []runeRange{
	{0x0D4E, 0x0D4E},   // MALAYALAM LETTER DOT REPH
	{0x111C2, 0x111C3}, // SHARADA SIGN JIHVAMULIYA..UPADHMANIYA
	{0x1193F, 0x1193F}, // DIVES AKURU PREFIXED NASAL SIGN
	{0x11941, 0x11941}, // DIVES AKURU INITIAL RA
	{0x11A3A, 0x11A3A}, // ZANABAZAR SQUARE CLUSTER-INITIAL LETTER RA
	{0x11A84, 0x11A89}, // SOYOMBO SIGN JIHVAMULIYA..CLUSTER-INITIAL LETTER SA
	{0x11D46, 0x11D46}, // MASARAM GONDI REPHA
	{0x11F02, 0x11F02}, // KAWI SIGN REPHA
}

// notSpacingMark are the Spacing_Mark (Mc) runes UAX #29 leaves out of
// SpacingMark (table 2, "Exceptions"), mostly Myanmar vowel signs, which
// a cluster does not take after it.
var notSpacingMark = []runeRange{
	{0x102B, 0x102C}, {0x1038, 0x1038}, {0x1062, 0x1064}, {0x1067, 0x106D},
	{0x1083, 0x1083}, {0x1087, 0x108C}, {0x108F, 0x108F}, {0x109A, 0x109C},
	{0x1A61, 0x1A61}, {0x1A63, 0x1A64}, {0xAA7B, 0xAA7B}, {0xAA7D, 0xAA7D},
	{0x11720, 0x11721},
}

// incbLinker are the runes of Indic_Conjunct_Break=Linker, the viramas of
// Devanagari, Bengali, Gujarati, Oriya, Telugu and Malayalam
// (DerivedCoreProperties.txt, Unicode 15.1; the standard library has no
// Indic_Conjunct_Break).
var incbLinker = []runeRange{
	{0x094D, 0x094D}, {0x09CD, 0x09CD}, {0x0ACD, 0x0ACD},
	{0x0B4D, 0x0B4D}, {0x0C4D, 0x0C4D}, {0x0D4D, 0x0D4D},
}

// incbConsonant are the runes of Indic_Conjunct_Break=Consonant, the
// consonants of the same six scripts (DerivedCoreProperties.txt, Unicode
// 15.1).
var incbConsonant = []runeRange{
	{0x0915, 0x0939}, {0x0958, 0x095F}, {0x0978, 0x097F}, // Devanagari
	{0x0995, 0x09A8}, {0x09AA, 0x09B0}, {0x09B2, 0x09B2}, {0x09B6, 0x09B9}, // Bengali
	{0x09DC, 0x09DD}, {0x09DF, 0x09DF}, {0x09F0, 0x09F1},
	{0x0A95, 0x0AA8}, {0x0AAA, 0x0AB0}, {0x0AB2, 0x0AB3}, {0x0AB5, 0x0AB9}, // Gujarati
	{0x0AF9, 0x0AF9},
	{0x0B15, 0x0B28}, {0x0B2A, 0x0B30}, {0x0B32, 0x0B33}, {0x0B35, 0x0B39}, // Oriya
	{0x0B5C, 0x0B5D}, {0x0B5F, 0x0B5F}, {0x0B71, 0x0B71},
	{0x0C15, 0x0C28}, {0x0C2A, 0x0C39}, {0x0C58, 0x0C5A}, // Telugu
	{0x0D15, 0x0D3A}, // Malayalam
}

// extendedPictographic are the runes of Extended_Pictographic outside
// Latin-1 (emoji-data.txt, Unicode 15.0: the standard library has no
// emoji properties), the blocks Unicode keeps for future emoji included,
// the skin tones (Extend) left out.
var extendedPictographic = []runeRange{
	{0x203C, 0x203C}, {0x2049, 0x2049}, {0x2122, 0x2122}, {0x2139, 0x2139},
	{0x2194, 0x2199}, {0x21A9, 0x21AA}, {0x231A, 0x231B}, {0x2328, 0x2328},
	{0x2388, 0x2388}, {0x23CF, 0x23CF}, {0x23E9, 0x23F3}, {0x23F8, 0x23FA},
	{0x24C2, 0x24C2}, {0x25AA, 0x25AB}, {0x25B6, 0x25B6}, {0x25C0, 0x25C0},
	{0x25FB, 0x25FE}, {0x2600, 0x2605}, {0x2607, 0x2612}, {0x2614, 0x2685},
	{0x2690, 0x2705}, {0x2708, 0x2712}, {0x2714, 0x2714}, {0x2716, 0x2716},
	{0x271D, 0x271D}, {0x2721, 0x2721}, {0x2728, 0x2728}, {0x2733, 0x2734},
	{0x2744, 0x2744}, {0x2747, 0x2747}, {0x274C, 0x274C}, {0x274E, 0x274E},
	{0x2753, 0x2755}, {0x2757, 0x2757}, {0x2763, 0x2767}, {0x2795, 0x2797},
	{0x27A1, 0x27A1}, {0x27B0, 0x27B0}, {0x27BF, 0x27BF}, {0x2934, 0x2935},
	{0x2B05, 0x2B07}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55},
	{0x3030, 0x3030}, {0x303D, 0x303D}, {0x3297, 0x3297}, {0x3299, 0x3299},
	{0x1F000, 0x1F0FF}, {0x1F10D, 0x1F10F}, {0x1F12F, 0x1F12F}, {0x1F16C, 0x1F171},
	{0x1F17E, 0x1F17F}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F1AD, 0x1F1E5},
	{0x1F201, 0x1F20F}, {0x1F21A, 0x1F21A}, {0x1F22F, 0x1F22F}, {0x1F232, 0x1F23A},
	{0x1F23C, 0x1F23F}, {0x1F249, 0x1F3FA}, {0x1F400, 0x1F53D}, {0x1F546, 0x1F64F},
	{0x1F680, 0x1F6FF}, {0x1F774, 0x1F77F}, {0x1F7D5, 0x1F7FF}, {0x1F80C, 0x1F80F},
	{0x1F848, 0x1F84F}, {0x1F85A, 0x1F85F}, {0x1F888, 0x1F88F}, {0x1F8AE, 0x1F8FF},
	{0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945}, {0x1F947, 0x1FAFF}, {0x1FC00, 0x1FFFD},
}
