package spec

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestUserMistakes: sentinels as a user writes them, each with a mistake
// that is easy to make. The first error names the line and column of the
// mistake and says what is wrong and how to write it.
func TestUserMistakes(t *testing.T) {
	const head = "Create Sentinel s Using https://shop.example/\n"
	tests := []struct {
		name, src, want string
	}{
		// An interval as English says it.
		{"fetch every", "Fetch every 2 hours", `2:7: "every" does not go after Fetch: write the interval alone, as in Fetch 2 hours`},
		{"fetch every zero", "Fetch every 0 hours", `2:7: "every" does not go after Fetch, and 0 hours is not greater than 0: write the interval alone, at least 1, as in Fetch 1 hour`},
		{"fetch every zero months", "Fetch every 0 months", `2:7: "every" does not go after Fetch, and 0 months is not greater than 0: write the interval alone, at least 1, as in Fetch 30 days`},
		{"every on the next line", "Fetch\n  Every 1 day", `3:3: expected interval (1 hour) or on change, found "Every"`},
		{"every without count", "Every day", `2:7: an interval needs its count: write Every 1 day`},
		{"fetch without count", "Fetch hours", `2:7: an interval needs its count: write Fetch 1 hour`},
		{"confirm without count", "Fetch 1 hour Confirm after minute", `2:28: an interval needs its count: write Confirm after 1 minute`},
		{"offset without count", "From Now + week", `2:12: an interval needs its count: write + 1 week`},
		{"hourly", "Fetch hourly", `2:7: "hourly" is not an interval: write Fetch 1 hour`},
		{"daily digest", "Every daily", `2:7: "daily" is not an interval: write Every 1 day`},
		{"every too large", "Every 99999999999999999999999 weeks", `2:7: Every 99999999999999999999999 weeks is longer than Vigil can count (about 292 years)`},
		{"confirm too large", "Fetch 1 hour Confirm after 99999999999999999999999 minutes", `2:28: Confirm after 99999999999999999999999 minutes is longer than Vigil can count (about 292 years)`},
		{"offset too large", "From Now + 99999999999999999999999 days", `2:12: offset 99999999999999999999999 days is longer than Vigil can count (about 292 years)`},
		{"fraction", "Fetch 1.5 hours", `2:7: the count of an interval is a whole number, found 1.5: use a smaller unit (90 minutes, not 1.5 hours)`},
		// Parentheses, scopes and lists.
		{"unclosed paren", "Monitor all images AND (all links OR keywords {x}", `2:50: expected ) to close the ( at 2:24, found end of file`},
		{"two scopes", `Monitor phrase {"a"} In css "div" In css "p"`, `2:35: a change type takes one scope (In): for the second inside the first, write In css "div p"`},
		{"two xpath scopes", `Monitor phrase {"a"} In xpath "//div" In xpath "//p"`, `2:39: a change type takes one scope (In): for the second inside the first, write In xpath "//div//p"`},
		{"two relative xpath scopes", `Monitor phrase {"a"} In xpath "//div" In xpath "p"`, `2:39: a change type takes one scope (In): for the second inside the first, write In xpath "//div//p"`},
		{"child xpath scope", `Monitor phrase {"a"} In xpath "//div" In xpath "./p"`, `2:39: a change type takes one scope (In): for the second inside the first, write In xpath "//div/p"`},
		{"absolute xpath scope", `Monitor phrase {"a"} In xpath "//div" In xpath "/html/p"`, `2:39: a change type takes one scope (In): write the one that selects what to watch`},
		{"two scopes, a list", `Monitor phrase {"a"} In css "div, ul" In css "p"`, `2:39: a change type takes one scope (In): write the one that selects what to watch`},
		{"two scopes, two languages", `Monitor phrase {"a"} In css "div" In xpath "//p"`, `2:35: a change type takes one scope (In): write the one that selects what to watch`},
		{"scope after ignore", `Monitor keywords {a} Ignore css ".ad" In css "main"`, `2:39: In comes before Ignore: write keywords {a} In css "main" Ignore css ".ad"`},
		{"empty table ids", "Monitor table {}", `2:16: table {} names no table: write table alone for every table, or name them, as in table {prices}`},
		{"empty keywords", "Monitor keywords {}", `2:19: keywords {} names no keyword: name at least one, as in keywords {sale}`},
		{"trailing comma", "Monitor keywords {sale,}", `2:24: a list does not end with ",": keywords {sale}`},
		// A "#" in an unquoted item begins a comment, which took the
		// rest of the list: the parser said "expected } to close the {
		// at 2:18, found "Fetch"" on the next line, or "expected , or },
		// found end of file".
		{"hash in a keyword", "Monitor keywords {C#, F#}\nFetch 1 hour", `2:19: "#" begins a comment, which runs to the end of the line and left the list open: write C# in quotes: keywords {"C#"}`},
		{"hash in the last keyword", "Monitor keywords {go, C#}", `2:23: "#" begins a comment, which runs to the end of the line and left the list open: write C# in quotes: keywords {"C#"}`},
		{"hash in a table id", "Monitor table (t#1)", `2:16: "#" begins a comment, which runs to the end of the line and left the list open: write t#1 in quotes: table {"t#1"}`},
		{"plural kind", "Monitor tables", `2:9: unknown change type "tables": did you mean table?`},
		{"joined count", "Fetch 1h", `2:7: write the count and the unit apart: Fetch 1 hour`},
		{"joined minutes", "Every 30min", `2:7: write the count and the unit apart: Every 30 minutes`},
		{"abbreviated unit", "Fetch 30 mins", `2:10: unknown time unit "mins": write minutes (want second, minute, hour, day, week or month)`},
		{"abbreviated M", "Fetch 1 M", `2:9: unknown time unit "M": write minute or month in full (want second, minute, hour, day, week or month)`},
		{"joined m", "Fetch 30m", `2:7: write the count and the unit apart, the unit in full: Fetch 30 minutes, or 30 months`},
		{"joined zero", "Fetch 0h", `2:7: write the count and the unit apart, the count greater than 0: Fetch 1 hour`},
		{"abbreviated day", "From Now + 2 d", `2:14: unknown time unit "d": write days (want second, minute, hour, day, week or month)`},
		{"semicolons between phrases", `Monitor phrase {"sold out"; "back soon"}`, `2:27: the items of a list are separated by ",", not ";": write phrase {"sold out", "back soon"}`},
		{"semicolons between keywords", "Monitor keywords {sale;discount; offer}", `2:23: the items of a list are separated by ",", not ";": write keywords {sale, discount, offer}`},
		{"semicolon in a long list", `Monitor phrase {"` + strings.Repeat("a", 90) + `"; "b"}`, `2:109: the items of a list are separated by ",", not ";", as in phrase {"sold out"}`},
		{"list after and", "Monitor keywords {a} and {b}", `2:26: a list follows its change type: write keywords {a} AND keywords {b}`},
		{"list after or", `Monitor all words AND NOT phrase {"a"} OR {"b"}`, `2:43: a list follows its change type: write all words AND NOT phrase {"a"} OR phrase {"b"}`},
		{"list after except", "Monitor all words except {a} AND {b}", `2:34: a list follows its change type: write all words except {a, b}`},
		{"list after a comma", "Monitor keywords {a}, {b}", `2:21: the items of one list are written in its braces, not in another list after a comma: write keywords {a, b}`},
		{"lists after commas", "Monitor keywords {a}, {b}, {c}", `2:21: the items of one list are written in its braces, not in another list after a comma: write keywords {a, b, c}`},
		{"list after a comma, repeated", "Monitor keywords {a}, {a}", `2:21: the items of one list are written in its braces, not in another list after a comma: write keywords {a}`},
		{"lists after commas, repeated in any case", "Monitor keywords {Sale}, {sale, b}, {B}", `2:24: the items of one list are written in its braces, not in another list after a comma: write keywords {Sale, b}`},
		{"lists after a comma, then a change type", `Monitor keywords {a}, {b}, phrase {"x"}`, `2:21: the items of one list are written in its braces, not in another list after a comma, as in keywords {b}`},
		{"list after and, then more", `Monitor keywords {a} AND {b} OR phrase {"x"}`, `2:26: a list follows its change type, as in keywords {b}`},
		{"list after and, twice", "Monitor keywords {a} AND {b} AND {c}", `2:26: a list follows its change type, as in keywords {b}`},
		{"list after a long one", "Monitor keywords {" + strings.Repeat("a", 80) + "} AND {b}", `2:105: a list follows its change type, as in keywords {b}`},
		{"list after all links", "Monitor all links AND {b}", `2:23: expected change type (any change, all links, all images, all words, keywords, phrase, table, list, regular expression, value), found "{"`},
		{"comma between change types", `Monitor keywords {a}, phrase {"x"}`, `2:21: change types are joined with OR (a change in either) or AND (in both), not with ",": write keywords {a} OR phrase {"x"}`},
		{"commas between change types", `Monitor all links, all images AND keywords {a}, phrase {"x"}`, `2:18: change types are joined with OR (a change in either) or AND (in both), not with ",": write all links OR all images AND keywords {a} OR phrase {"x"}`},
		{"comma in parentheses", `Monitor all words AND (keywords {a}, phrase {"x"})`, `2:36: change types are joined with OR (a change in either) or AND (in both), not with ",": write keywords {a} OR phrase {"x"}`},
		{"comma, then no change type", `Monitor keywords {a}, nope`, `2:21: change types are joined with OR (a change in either) or AND (in both), not with ","`},
		{"list without braces", "Monitor keywords: sale, discount", `2:19: expected { or ( after keywords, found "sale": the list goes in braces, as in keywords {sale}`},
		// Quotes, selectors and contacts.
		// A byte that is not UTF-8 (a Latin-1 file) cannot be quoted:
		// "caf\xe9" is refused too.
		{"latin-1 keyword", "Monitor keywords {caf\xe9}", `2:22: invalid UTF-8 encoding (save the file as UTF-8)`},
		{"latin-1 byte alone", "Monitor keywords {\xe9}", `2:19: invalid UTF-8 encoding (save the file as UTF-8)`},
		{"latin-1 phrase", "Monitor phrase {caf\xe9 au lait}", `2:20: invalid UTF-8 encoding (save the file as UTF-8)`},
		{"latin-1 except", "Monitor all words except {caf\xe9}", `2:30: invalid UTF-8 encoding (save the file as UTF-8)`},
		{"latin-1 selector", "Monitor any change Ignore css .caf\xe9", `2:35: invalid UTF-8 encoding (save the file as UTF-8)`},
		{"latin-1 match", "Monitor any change\nCreate Sentinel t Using site https://b.example/ match caf\xe9", `3:58: invalid UTF-8 encoding (save the file as UTF-8)`},
		// A character a terminal acts on (U+202E turns the rest of the
		// line around, U+200B hides, \x01 is a control) is shown escaped.
		{"bidi override in a keyword", "Monitor keywords {\u202Eabc}", `2:19: illegal character '\u202e' in \u202eabc: write it in quotes: keywords {"\u202eabc"}`},
		{"zero width in a keyword", "Monitor keywords {a\u200Bb}", `2:20: illegal character '\u200b' in a\u200bb: write it in quotes: keywords {"a\u200bb"}`},
		{"control in a keyword", "Monitor keywords {a\x01b}", `2:20: illegal character '\x01' in a\x01b: write it in quotes: keywords {"a\x01b"}`},
		{"bidi override in a selector", "Monitor any change Ignore css .a\u202E", `2:31: expected quoted selector, found .a\u202e: write css ".a\u202e"`},
		// Full-width forms, as an East Asian keyboard types them.
		{"full-width brace", "Monitor keywords ｛sale}", `2:18: illegal character '｛' (full-width; write '{')`},
		{"full-width closing brace", "Monitor all links AND keywords {sale｝", `2:37: illegal character '｝' (full-width; write '}')`},
		{"full-width comma", "Monitor keywords {sale，offer}", `2:23: illegal character '，' (full-width; write ',')`},
		{"single quotes", "Monitor phrase {'sold out'}", `2:17: illegal character '\'': write it in double quotes: phrase {"sold out"}`},
		{"except after links", "Monitor all links except {x}", `2:19: "except" goes with all words only, as in all words except {x}`},
		{"ignore alone", `Monitor Ignore css ".ad"`, `2:9: In and Ignore follow a change type: write any change Ignore css ".ad"`},
		{"ignore language", `Monitor all words Ignore ".ad"`, `2:26: expected css or xpath, found ".ad": write Ignore css ".ad"`},
		{"selector language", `Monitor keywords {price} In "div.p"`, `2:29: expected css or xpath, found "div.p": write In css "div.p"`},
		{"contacts without comma", "Notify By email me@example.org email you@example.org", `2:32: contacts are separated by commas: write Notify By email me@example.org, email you@example.org`},
		{"contacts without comma, passwords", "Notify By webhook https://u:s3cret@h.example/x webhook https://v:pw@h.example/y", `2:48: contacts are separated by commas: write Notify By webhook https://u:xxxxx@h.example/x, webhook https://v:xxxxx@h.example/y`},
		{"contacts without comma, a password in a fax", `Notify By fax "https://u:s3cret@h.example/x" email a@b.example`, `2:46: contacts are separated by commas: write Notify By fax https://u:xxxxx@h.example/x, email a@b.example`},
		{"contacts without comma, long", "Notify By email " + strings.Repeat("m", 160) + "@example.org email you@example.org", `2:190: contacts are separated by commas: write a comma before email`},
		{"day first", "From 31-12-2026", `2:6: invalid date 31-12-2026: month out of range, the day written first; write 12/31/2026 for 31-12-2026 (MM/DD/YYYY)`},
		{"day first, slashes", "To 31/12/2026", `2:4: invalid date 31/12/2026: month out of range, the day written first; write 12/31/2026 for 31/12/2026 (MM/DD/YYYY)`},
		{"day first, no such day", "To 31/11/2026", `2:4: invalid date 31/11/2026: month out of range (want MM/DD/YYYY)`},
		{"tomorrow", "From tomorrow", `2:6: expected date (MM/DD/YYYY), Now, start(name), end(name) or during(name), found "tomorrow": write From Now + 1 day`},
		{"today", "To today", `2:4: expected date (MM/DD/YYYY), Now, start(name) or end(name), found "today": write To Now`},
		// Clause keywords as English says them, or misspelt.
		{"until", "Until 12/31/2027", `2:1: expected Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create, found "Until": write To for the end of the sentinel's life, as in To Now + 1 month`},
		{"since", "Since Now", `2:1: expected Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create, found "Since": write From for the start of the sentinel's life, as in From Now`},
		{"watch", "Watch any change", `2:1: expected Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create, found "Watch": write Monitor for the changes to report, as in Monitor any change`},
		{"alert", "Alert me@example.org", `2:1: expected Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create, found "Alert": write Notify By for whom to tell, as in Notify By email you@example.org`},
		{"misspelt Monitor", "Montior any change", `2:1: expected Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create, found "Montior": write Monitor`},
		{"misspelt Notify", "notfy By email me@example.org", `2:1: expected Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create, found "notfy": write Notify`},
		{"a word far from any", "Frobnicate any change", `2:1: expected Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create, found "Frobnicate"`},
		{"chat service named", "Notify By slack URL", `2:11: expected email <address>, webhook <URL> or a chat URL (slack://, discord://, telegram://, ntfy://, gotify://, mattermost://), found "slack": a chat service is named by the URL it gives, which begins with its scheme: write Notify By slack://...`},
		{"chat service named alone", "Notify By Discord", `2:11: expected email <address>, webhook <URL> or a chat URL (slack://, discord://, telegram://, ntfy://, gotify://, mattermost://), found "Discord": a chat service is named by the URL it gives, which begins with its scheme: write Notify By discord://...`},
		// The contacts before it, written well, are kept.
		{"chat service named after an email", "Notify By email a@b.example, slack", `2:30: expected email <address>, webhook <URL> or a chat URL (slack://, discord://, telegram://, ntfy://, gotify://, mattermost://), found "slack": a chat service is named by the URL it gives, which begins with its scheme: write Notify By email a@b.example, slack://...`},
		{"chat service named after a webhook with a password", "Notify By webhook https://u:s3cret@h.example/x, Slack", `2:49: expected email <address>, webhook <URL> or a chat URL (slack://, discord://, telegram://, ntfy://, gotify://, mattermost://), found "Slack": a chat service is named by the URL it gives, which begins with its scheme: write Notify By webhook https://u:xxxxx@h.example/x, slack://...`},
		{"chat service named after a chat URL with a password", "Notify By ntfy://u:s3cret@n.example/t, a@b.example, discord", `2:53: expected email <address>, webhook <URL> or a chat URL (slack://, discord://, telegram://, ntfy://, gotify://, mattermost://), found "discord": a chat service is named by the URL it gives, which begins with its scheme: write Notify By ntfy://***@n.example/***, email a@b.example, discord://...`},
		{"chat service named after an email written as a URL with a password", "Notify By email https://u:s3cret@h.example/x, slack", `2:47: expected email <address>, webhook <URL> or a chat URL (slack://, discord://, telegram://, ntfy://, gotify://, mattermost://), found "slack": a chat service is named by the URL it gives, which begins with its scheme: write Notify By email https://u:xxxxx@h.example/x, slack://...`},
		{"chat service named after long contacts", "Notify By email first.person@example.org, email second.person@example.org, email third.person@example.org, slack", `2:108: expected email <address>, webhook <URL> or a chat URL (slack://, discord://, telegram://, ntfy://, gotify://, mattermost://), found "slack": a chat service is named by the URL it gives, which begins with its scheme: write Notify By ..., slack://...`},
		{"notify without by", "Notify me@example.org", `2:8: expected "By", found "me@example.org": write Notify By email me@example.org`},
		{"notify without by, a webhook", "Notify https://hooks.example/x", `2:8: expected "By", found "https://hooks.example/x": write Notify By webhook https://hooks.example/x`},
		{"notify without by, a webhook with a password", "Notify https://u:s3cret@hooks.example/x", `2:8: expected "By", found "https://u:xxxxx@hooks.example/x": write Notify By webhook https://u:xxxxx@hooks.example/x`},
		{"notify without by, two webhooks with passwords", "Notify https://u:s3cret@a.example/x, https://v:pw@b.example/",
			`2:8: expected "By", found "https://u:xxxxx@a.example/x": write Notify By webhook https://u:xxxxx@a.example/x, webhook https://v:xxxxx@b.example/`},
		// A URL no webhook takes, or an address as a link writes it,
		// is not told to be written as it is.
		{"notify without by, no webhook", "Notify ftp://files.example/x", `2:8: expected "By", found "ftp://files.example/x"`},
		{"notify without by, mailto", "Notify mailto:me@example.org", `2:8: expected "By", found "mailto:me@example.org": write Notify By email me@example.org`},
		{"notify two without by", "Notify me@example.org, you@example.org", `2:8: expected "By", found "me@example.org": write Notify By email me@example.org, email you@example.org`},
		{"notify three without by", "Notify me@example.org, https://hooks.example/x, slack://t", `2:8: expected "By", found "me@example.org": write Notify By email me@example.org, webhook https://hooks.example/x, slack://t`},
		{"notify without by, then no contact", "Notify me@example.org, nope", `2:8: expected "By", found "me@example.org": write Notify By email me@example.org`},
		{"notify without by, more than a message quotes", "Notify " + strings.Repeat("a", 25) + "@example.org, " + strings.Repeat("b", 25) + "@example.org", `2:8: expected "By", found "` + strings.Repeat("a", 25) + `@example.org": write Notify By email ` + strings.Repeat("a", 25) + `@example.org`},
		{"notify without by, a contact twice", "Notify me@example.org, you@example.org, ME@example.org", `2:8: expected "By", found "me@example.org": write Notify By email me@example.org, email you@example.org`},
		{"any changes", "Monitor any changes", `2:13: expected "change" after "any", found "changes": write any change`},
		{"any links", "Monitor any links", `2:13: expected "change" after "any", found "links": write all links`},
		{"any image", "Monitor any image", `2:13: expected "change" after "any", found "image": write all images`},
		{"anychanges", "Monitor anychanges", `2:9: unknown change type "anychanges": did you mean any change?`},
		// A time of day as English writes it.
		{"am", "From 12/01/2027 9am", `2:17: a time of day is written HH:MM, in 24 hours: write 12/01/2027 09:00`},
		{"pm after a clock", "To 12/01/2027 9:30 PM", `2:15: a time of day is written HH:MM, in 24 hours: write 12/01/2027 21:30`},
		{"12 am", "To 12/01/2027 12 a.m.", `2:15: a time of day is written HH:MM, in 24 hours: write 12/01/2027 00:00`},
		{"seconds", "To 12/31/2027 23:59:59", `2:15: a time of day is written HH:MM, without seconds: write 12/31/2027 23:59`},
		// Words of a clause, slightly off.
		{"on changes", "Fetch on changes", `2:10: expected "change" after "on", found "changes": write Fetch on change`},
		{"immediately", "Every immediately", `2:7: expected immediate, best effort, interactive or an interval, found "immediately": write Every immediate`},
		{"best efforts", "Every best efforts", `2:12: expected "effort" after "best", found "efforts": write Every best effort`},
		{"offset without base", "To +1 month", `2:4: expected date (MM/DD/YYYY), Now, start(name) or end(name), found "+": an offset is added to a time point, as in To Now + 1 month`},
		// An offset taken away, which the language has not: told so,
		// not "illegal character" nor "expected Monitor, ..." at -2.
		{"offset taken away", "To 12/31/2027 - 1 day", `2:15: expected + or the next clause, found "-": an offset is only added to a time point, as in To Now + 1 month, never taken away`},
		{"offset negative", "From Now + 1 day -2 hours", `2:18: expected + or the next clause, found "-2": an offset is only added to a time point, as in From Now + 1 month, never taken away`},
		{"offset minus sign", "To 12/31/2027 − 1 day", `2:15: expected + or the next clause, found "−": an offset is only added to a time point, as in To Now + 1 month, never taken away`},
		{"fetch every unit", "Fetch every day", `2:7: "every" does not go after Fetch: write the interval, with its count, alone, as in Fetch 1 day`},
		{"confirm without after", "Fetch 5 minutes Confirm 10 minutes", `2:25: expected "after", found "10": write Confirm after 10 minutes`},
		{"confirm zero without after", "Fetch 5 minutes Confirm 0 minutes", `2:25: expected "after", found "0", and 0 minutes is not greater than 0: write at least 1, as in Confirm after 1 minute`},
		{"pairwise with a number", "Compare pairwise 2", `2:18: Compare takes pairwise, every <n> or moving <n>, and pairwise takes no number: write Compare pairwise`},
		{"above", `Monitor value In css ".p" above 10`, `2:27: expected value condition (changes, increases, decreases, rises above N, falls below N), found "above": write rises above 10`},
		{"greater than", `Monitor value In css ".p" greater than 1.5`, `2:27: expected value condition (changes, increases, decreases, rises above N, falls below N), found "greater": write rises above 1.5`},
		{"under", `Monitor value In css ".p" under 3`, `2:27: expected value condition (changes, increases, decreases, rises above N, falls below N), found "under": write falls below 3`},
		{"less than, no number", `Monitor value In css ".p" less than`, `2:27: expected value condition (changes, increases, decreases, rises above N, falls below N), found "less": write falls below N`},
		// A number the threshold cannot take as it is, or cut by
		// the end of what is read ahead, is not given back cut: 10
		// for 10,000 is another threshold.
		{"over grouped", `Monitor value In css ".p" over 10,000`, `2:27: expected value condition (changes, increases, decreases, rises above N, falls below N), found "over": write rises above N`},
		{"above exponent", `Monitor value In css ".p" above 1e5`, `2:27: expected value condition (changes, increases, decreases, rises above N, falls below N), found "above": write rises above N`},
		{"above percent", `Monitor value In css ".p" above 10%`, `2:27: expected value condition (changes, increases, decreases, rises above N, falls below N), found "above": write rises above N`},
		{"under long", `Monitor value In css ".p" under ` + strings.Repeat("9", 80), `2:27: expected value condition (changes, increases, decreases, rises above N, falls below N), found "under": write falls below N`},
		{"above, comment", `Monitor value In css ".p" above 10# c`, `2:27: expected value condition (changes, increases, decreases, rises above N, falls below N), found "above": write rises above 10`},
		// A threshold written with its point first is told with a
		// digit before it, not as after a currency sign (5 for .5).
		{"point first", `Monitor value In css ".p" rises above .5`, `2:39: write the threshold with a digit before its point: 0.5, not .5`},
		{"point first, negative", `Monitor value In css ".p" falls below -.25`, `2:39: write the threshold with a digit before its point: -0.25, not -.25`},
		{"currency, point first", `Monitor value In css ".p" falls below $.99`, `2:39: write the threshold as a number, without a currency sign: 0.99, not $.99`},
		{"two points first", `Monitor value In css ".p" rises above .5.5`, `2:39: illegal character '.'`},
		// A unit after a threshold, or a point that ends it, is told
		// at the threshold, as a currency sign before it is, where it
		// was an illegal character or "expected Monitor, ..." at a word.
		{"percent after", `Monitor value In css ".p" rises above 5%`, `2:39: write the threshold as a number, without a unit: 5, not 5%`},
		{"percent apart", `Monitor value In css ".p" falls below -2.5 %`, `2:39: write the threshold as a number, without a unit: -2.5, not -2.5 %`},
		{"currency code after", `Monitor value In css ".p" rises above 5 USD`, `2:39: write the threshold as a number, without a unit: 5, not 5 USD`},
		{"unit word, then OR", `Monitor value In css ".p" rises above 5 percent OR any change`, `2:39: write the threshold as a number, without a unit: 5, not 5 percent`},
		{"unit word, comment", `Monitor value In css ".p" rises above 5 kg # weight`, `2:39: write the threshold as a number, without a unit: 5, not 5 kg`},
		{"unit joined", `Monitor value In css ".p" rises above 12.5EUR`, `2:39: write the threshold as a number, without a unit: 12.5, not 12.5EUR`},
		{"currency sign after", `Monitor value In css ".p" rises above 5 €`, `2:39: write the threshold as a number, without a currency sign: 5, not 5 €`},
		{"trailing point", `Monitor value In css ".p" rises above 5.`, `2:39: write the threshold without a trailing point: 5, not 5.`},
		{"trailing point, then OR", `Monitor value In css ".p" falls below -5. OR any change`, `2:39: write the threshold without a trailing point: -5, not -5.`},
		// A word that goes on may be a clause misspelt: not a unit.
		{"word going on", `Monitor value In css ".p" rises above 5 Fecth 1 hour`, `2:41: expected Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create, found "Fecth"`},
		{"point apart", `Monitor value In css ".p" rises above 5 .`, `2:41: illegal character '.'`},
		{"semicolon", "Monitor any change;", `2:19: illegal character ';': clauses and sentinels end without ";": remove it`},
		// After a URL or an address, which may hold a ";" but
		// hardly ends with one, it was read as part of it, without
		// a word ("Using https://shop.example/;" watched that URL).
		{"semicolon after a webhook", "Notify By webhook https://h.example/x;", `2:38: illegal character ';': clauses and sentinels end without ";": remove it`},
		{"semicolon after an address", "Notify By email me@example.org;", `2:31: illegal character ';': clauses and sentinels end without ";": remove it`},
		{"semicolons after a URL", "Monitor any change\nCreate Sentinel t Using https://b.example/;;", `3:43: illegal character ';': clauses and sentinels end without ";": remove it`},
		{"semicolon inside a URL", "Monitor any change\nCreate Sentinel t Using https://b.example/a;b=1 ;", `3:49: illegal character ';': clauses and sentinels end without ";": remove it`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := head + tt.src + "\n"
			_, err := Parse("m.ssl", []byte(src))
			var el ErrorList
			if !errors.As(err, &el) || len(el) == 0 {
				t.Fatalf("%q: no error, want %s", tt.src, tt.want)
			}
			e := el[0]
			if got := e.Pos.String()[len("m.ssl:"):] + ": " + e.Msg; got != tt.want {
				t.Errorf("%q:\n got %s\nwant %s", tt.src, got, tt.want)
			}
			// The editor marks what Found holds, at the error: the
			// mistake's text (none past the end; an error at the end
			// of a line names the next token, which the editor does
			// not mark there).
			if rest := strings.TrimSpace(src[e.Pos.Offset:]); rest != "" && src[e.Pos.Offset] != '\n' && (e.Found == "" || !strings.HasPrefix(src[e.Pos.Offset:], e.Found)) {
				t.Errorf("%q: found %q, not the text at the error: %q", tt.src, e.Found, src[e.Pos.Offset:])
			}
		})
	}
}

// TestQuotedNameMistake: a sentinel named in quotes, as a title, is told
// that a name is one word.
func TestQuotedNameMistake(t *testing.T) {
	for src, want := range map[string]string{
		`Create Sentinel "my shop" Using https://shop.example/`: `1:17: expected sentinel name, found "my shop": a name is one word, unquoted, as in my-shop`,
		`Create Sentinel "a" Using https://shop.example/`:       `1:17: expected sentinel name, found "a": a name is one word, unquoted, as in a`,
		`Create Sentinel "(x)" Using https://shop.example/`:     `1:17: expected sentinel name, found "(x)"`,
		`Create Sentinel my shop Using https://shop.example/`:   `1:17: a name is one word: write my-shop`,
		`Create Sentinel 1s Using https://shop.example/`:        `1:17: expected sentinel name, found "1s": a name begins with a letter, as in s1`,
	} {
		_, err := Parse("m.ssl", []byte(src))
		var el ErrorList
		if !errors.As(err, &el) || len(el) == 0 {
			t.Fatalf("%s: no error", src)
		}
		if got := el[0].Pos.String()[len("m.ssl:"):] + ": " + el[0].Msg; got != want {
			t.Errorf("%s:\n got %s\nwant %s", src, got, want)
		}
	}
}

// TestIntervalFoundAsWritten: an interval the checker refuses is named, as
// Found, as the source writes it ("0 hour", "1  month"), which the editor
// marks; the canonical plural ("0 hours") is not in the source and marked
// one character.
func TestIntervalFoundAsWritten(t *testing.T) {
	for _, tt := range []struct{ src, found string }{
		{"Fetch 0 hour", "0 hour"},
		{"Fetch 1  month", "1  month"},
		{"Fetch 2 month", "2 month"},
		{"Confirm after 20000 week", "20000 week"},
		{"Every 0 day", "0 day"},
	} {
		src := "Create Sentinel s Using https://shop.example/\n" + tt.src + "\n"
		c := &Checker{Now: time.Date(2003, 6, 1, 12, 0, 0, 0, time.UTC)}
		_, err := c.Check(mustParse(t, src).Sentinels[0])
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: %v, want an error", tt.src, err)
		}
		if e.Found != tt.found || !strings.HasPrefix(src[e.Pos.Offset:], e.Found) {
			t.Errorf("%q: found %q at %d (%q), want %q, the text there", tt.src, e.Found, e.Pos.Offset, src[e.Pos.Offset:], tt.found)
		}
	}
}
