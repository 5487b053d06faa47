package intent

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds the words shops write around their prices that the
// reading of a value asks about, each list small and in a few languages
// (English, German, French, Spanish, Italian, Dutch): a word not listed
// leaves the reading as it was.

// lowerWords returns the words of s, its runs of letters, in lower case:
// "Sous-total :" is sous and total.
func lowerWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

// amountWordKind is what the words around an amount say of it
// (amountWord).
type amountWordKind int

const (
	// noWord: the words say nothing of the amount.
	noWord amountWordKind = iota
	// wasWord: the amount was asked before (Was $59.99, statt 59,99 €).
	wasWord
	// nowWord: the amount is asked now (Now $49.99, jetzt 49,99 €).
	nowWord
	// saveWord: the amount is a saving (Save $10).
	saveWord
)

// amountWord returns what label, the text between the number before an
// amount (or the text's start) and the amount, whose digits and
// separators are m, says of it: the word that ends it without the
// amount's currency (Was $, Was USD), or where that word is a price's
// (priceWords) the one next to it (Old price, List Price:, Precio
// anterior). Some words say so only next to a price word (old, list,
// new, nouveau): "New" alone is a condition, "New price" a price. Where
// label says nothing, the first word of after, the text after the
// amount's digits, may say it is a saving ($10 off, 10 € Rabatt).
func amountWord(label, m, after string) amountWordKind {
	if rest, ok := currencyBefore(label, m); ok {
		label = rest
	}
	last, before := lastLetters(label)
	kind := wordKind(last, false)
	if kind == wasWord && !labelPlace(before, label[len(before)+len(last):], last) {
		kind = noWord // Revenue was $1.2 billion; findet am 12.03. statt. 15 €
	}
	if prev, _ := lastLetters(before); kind == noWord {
		switch {
		case priceWords[last]:
			kind = wordKind(prev, true) // Old price
		case priceWords[prev]:
			kind = wordKind(last, true) // Precio anterior
		}
	}
	if kind == noWord && offWords[firstWord(after)] {
		kind = saveWord // $10 off
	}
	if kind == noWord && surcharge(label, after) {
		kind = saveWord // zzgl. 4,95 € Versand: not the price asked either
	}
	return kind
}

// labelPlace reports whether a was-word, word, with before the text before
// it and rest the text between it and the amount, stands where a price's
// label does: at the text's start or after punctuation, not in a
// sentence ("Revenue was $1.2 billion", "It was $20 cheaper"), and not
// ending a sentence itself ("findet am 12.03. statt. 15 €"; the period of
// an abbreviation, "Reg. $59.99", is the word's).
func labelPlace(before, rest, word string) bool {
	if strings.Contains(rest, ".") && word != "reg" {
		return false
	}
	b := strings.TrimRightFunc(before, unicode.IsSpace)
	if b == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(b)
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// surcharge reports whether the amount after label, with after the text
// after its digits, is added to a price rather than one (zzgl. 4,95 €
// Versand, + $5.99 shipping, plus 3 € Porto).
func surcharge(label, after string) bool {
	if l := strings.TrimRightFunc(label, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("$€£¥", r) }); strings.HasSuffix(l, "+") {
		return true
	}
	if last, _ := lastLetters(label); surchargeWords[last] {
		return true
	}
	return shippingWords[firstWord(after)] // the word right after the amount only
}

// surchargeWords, before an amount, and shippingWords, after it, say it
// is added to a price (zzgl., plus, zuzüglich; shipping, Versand, Porto).
var (
	surchargeWords = map[string]bool{"zzgl": true, "zuzüglich": true, "plus": true}
	shippingWords  = map[string]bool{
		"shipping": true, "delivery": true, "postage": true, "versand": true, "versandkosten": true, "porto": true,
		"livraison": true, "envío": true, "envio": true, "spedizione": true, "verzending": true, "verzendkosten": true,
	}
)

// lastLetters returns the last word of s, its last run of letters, in
// lower case, and the text before it.
func lastLetters(s string) (word, before string) {
	end := strings.LastIndexFunc(s, unicode.IsLetter)
	if end < 0 {
		return "", ""
	}
	_, w := utf8.DecodeRuneInString(s[end:])
	end += w
	start := strings.LastIndexFunc(s[:end], func(r rune) bool { return !unicode.IsLetter(r) })
	if start >= 0 {
		_, w = utf8.DecodeRuneInString(s[start:])
		start += w
	} else {
		start = 0
	}
	return strings.ToLower(s[start:end]), s[:start]
}

// wordKind returns what word says of the amount after it, standing
// before it or, with price set, next to a price word.
func wordKind(word string, price bool) amountWordKind {
	switch {
	case wasWords[word] || price && wasPriceWords[word]:
		return wasWord
	case nowWords[word] || price && nowPriceWords[word]:
		return nowWord
	case saveWords[word]:
		return saveWord
	}
	return noWord
}

// wasWords say the amount after them was asked before, a regular price
// beside a sale's: English was, regular, reg., originally, RRP and MSRP;
// German statt, vorher, bisher and UVP; French avant; Spanish antes;
// Italian prima.
var wasWords = map[string]bool{
	"was": true, "regular": true, "reg": true, "originally": true, "rrp": true, "msrp": true, // English
	"statt": true, "vorher": true, "bisher": true, "uvp": true, // German
	"avant": true, "antes": true, "prima": true, // French, Spanish, Italian
}

// wasPriceWords say it next to a price word only (Old price, List Price,
// alter Preis, ancien prix, precio anterior, prezzo precedente, oude
// prijs), where alone they name other things.
var wasPriceWords = map[string]bool{
	"old": true, "list": true, "original": true, // English
	"alter": true, "alte": true, "alten": true, // German
	"ancien": true, "anterior": true, "precedente": true, "vecchio": true, "oude": true, // French, Spanish, Italian, Dutch
}

// nowWords say the amount after them is asked now: English now and sale,
// German jetzt, French maintenant, Spanish ahora, Italian adesso (not
// ora, which is also the hour: "dalla seconda ora 1,50 €"), Dutch nu.
var nowWords = map[string]bool{
	"now": true, "sale": true, "jetzt": true, "maintenant": true, "ahora": true, "adesso": true, "nu": true,
}

// nowPriceWords say it next to a price word only (New price, Our price,
// neuer Preis, nouveau prix, nuevo precio, nuovo prezzo, nieuwe prijs):
// New alone is a condition (New $49.99, Used $30).
var nowPriceWords = map[string]bool{
	"new": true, "our": true, "special": true, // English
	"neuer": true, "neue": true, "neu": true, // German
	"nouveau": true, "nuevo": true, "nuovo": true, "nieuwe": true, // French, Spanish, Italian, Dutch
}

// priceWords name a price, next to which a wasPriceWords' or a
// nowPriceWords' word says which one it is.
var priceWords = map[string]bool{
	"price": true, "preis": true, "prix": true, "precio": true, "prezzo": true, "prijs": true,
}

// saveWords say the amount after them is a saving: an amount after a
// was-word that one follows is still the value (Was $59.99 Save $10).
var saveWords = map[string]bool{
	"save": true, "saving": true, "savings": true, // English
	"sparen": true, "ersparnis": true, // German
	"économisez": true, "économie": true, // French
	"ahorra": true, "ahorro": true, "ahorras": true, // Spanish
	"risparmi": true, "risparmio": true, // Italian
	"bespaar": true, "besparing": true, // Dutch
}

// offWords, after an amount, say it is a saving: English off and less,
// German Rabatt and günstiger, Dutch korting ($10 off, 10 € günstiger).
var offWords = map[string]bool{"off": true, "less": true, "rabatt": true, "günstiger": true, "korting": true}

// shopLabel reports whether label, the text before the colon after which
// an amount stands in parentheses, names a line of a cart, an order or a
// receipt (Order total, You save, Discount, Rabatt, Sous-total), whose
// parentheses set the amount off, as a shop writes them, where a
// statement's (Net income, Total) write a negative amount
// (inAccountingParens). Only the label's last words (shopLabelWords at
// most, after its last comma or period) are asked, and none where a
// statement's word stands in it: "Operating loss from delivery segment:
// ($1,200)" and "Q3 net loss, order backlog: ($1,200)" are a statement's.
func shopLabel(label string) bool {
	words := lowerWords(label)
	for _, w := range words {
		if statementLabelWords[w] {
			return false
		}
	}
	if k := strings.LastIndexAny(label, ",.;"); k >= 0 {
		words = lowerWords(label[k+1:])
	}
	if len(words) > shopLabelLen {
		words = words[len(words)-shopLabelLen:]
	}
	for _, w := range words {
		if shopLabelWords[w] || saveWords[w] {
			return true
		}
	}
	return false
}

// shopLabelLen is the most words of a label shopLabel asks: a cart's
// line is named in a few ("Order total", "You save", "Sous-total").
const shopLabelLen = 3

// statementLabelWords are the words of a statement's labels, before which
// no shop's word makes parentheses a shop's (shopLabel).
var statementLabelWords = map[string]bool{
	"loss": true, "losses": true, "income": true, "net": true, "cash": true, "revenue": true, "revenues": true,
	"profit": true, "earnings": true, "expense": true, "expenses": true, "deficit": true, "adjustment": true, "adjustments": true,
	"verlust": true, "ergebnis": true, "fehlbetrag": true, "perte": true, "résultat": true, "pérdida": true, "perdita": true,
	"verlies": true,
}

// shopLabelWords are the words of shopLabel besides saveWords: discount,
// coupon, order, cart, subtotal and shipping. Total alone is not one: a
// statement's totals are negative as often as its lines.
var shopLabelWords = map[string]bool{
	// English
	"discount": true, "coupon": true, "voucher": true, "promo": true,
	"order": true, "cart": true, "basket": true, "subtotal": true, "shipping": true, "delivery": true,
	// German
	"rabatt": true, "gutschein": true, "bestellung": true, "warenkorb": true,
	"zwischensumme": true, "versand": true, "lieferung": true,
	// French
	"remise": true, "réduction": true, "commande": true, "panier": true,
	"sous": true, "livraison": true,
	// Spanish
	"descuento": true, "cupón": true, "pedido": true, "carrito": true, "envío": true,
	// Italian
	"sconto": true, "ordine": true, "carrello": true, "subtotale": true, "spedizione": true,
	// Dutch
	"korting": true, "bestelling": true, "winkelwagen": true, "subtotaal": true, "verzending": true,
	// Hungarian, Turkish
	"szállítás": true, "kedvezmény": true, "kupon": true, "rendelés": true, "kosár": true,
	"kargo": true, "indirim": true, "sipariş": true, "sepet": true,
}

// isPriceLabel reports whether word is a label a shop writes before a
// price (priceLabelWords, wasWords, nowWords), whatever its case: Prix,
// PREIS, Cena, Now. A product's name before a number is a name's
// otherwise (afterName: iPhone 15 999 €).
func isPriceLabel(word string) bool {
	w := strings.ToLower(word)
	return priceLabelWords[w] || wasWords[w] || nowWords[w]
}

// isShopWord reports whether word, whatever its case, is one a shop
// writes about a price besides a label's (isPriceLabel): a cart's or a
// discount's (shopLabelWords: Promo, Rabatt), a saving's (saveWords:
// Économisez), one that says which price next to a price word
// (wasPriceWords, nowPriceWords: Neu, Nouveau), or a sale's or a
// condition's (saleWords: Soldes, Angebot, Neuf). Written with a capital
// before a number, it is no name's word (afterName: Promo 2 499 € is
// 2499, where iPhone 15 999 € is 999).
func isShopWord(word string) bool {
	w := strings.ToLower(word)
	return shopLabelWords[w] || saveWords[w] || wasPriceWords[w] || nowPriceWords[w] || saleWords[w]
}

// saleWords are the words of isShopWord besides the other lists': a
// sale, an offer or a promotion, and the condition of what is sold (new,
// used, refurbished), in English, German, French, Spanish, Italian and
// Dutch.
var saleWords = map[string]bool{
	"offer": true, "deal": true, "promotion": true, "clearance": true, "used": true, "refurbished": true, // English
	"angebot": true, "aktion": true, "sonderangebot": true, "gebraucht": true, // German
	"soldes": true, "solde": true, "offre": true, "neuf": true, "occasion": true, "reconditionné": true, // French
	"oferta": true, "rebajas": true, "usado": true, // Spanish
	"offerta": true, "saldi": true, "usato": true, // Italian
	"aanbieding": true, "actie": true, "nieuw": true, "gebruikt": true, // Dutch
}

// priceLabelWords are the words of isPriceLabel besides wasWords and
// nowWords: price, total and amount, from and only, and the taxes a
// price includes (Prix TTC, Preis inkl. MwSt), in the languages of this
// file and in those whose pages group thousands with spaces
// (pageGroupsBySpace: Czech, Polish, Slovak, Swedish, Danish, Norwegian,
// Finnish, Portuguese, Hungarian, Russian, Ukrainian).
var priceLabelWords = map[string]bool{
	// price
	"price": true, "preis": true, "prix": true, "precio": true, "prezzo": true, "prijs": true, "pris": true,
	"hinta": true, "cena": true, "preço": true, "ár": true, "цена": true, "ціна": true, "tarif": true,
	// total, amount
	"total": true, "totale": true, "totaal": true, "gesamt": true, "summe": true, "montant": true, "betrag": true,
	"importe": true, "importo": true, "bedrag": true, "celkem": true, "razem": true, "suma": true, "summa": true,
	"yhteensä": true, "итого": true, "всього": true,
	// from, only
	"from": true, "ab": true, "dès": true, "desde": true, "da": true, "vanaf": true, "od": true, "från": true,
	"fra": true, "от": true, "від": true, "only": true, "nur": true, "seulement": true, "solo": true, "sólo": true,
	"slechts": true, "jen": true, "tylko": true,
	// taxes
	"ttc": true, "ht": true, "tva": true, "vat": true, "mwst": true, "iva": true, "btw": true, "dph": true,
	"moms": true, "alv": true,
}
