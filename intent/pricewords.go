package intent

import (
	"strings"
	"unicode"
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

// shopLabel reports whether label, the text before the colon after which
// an amount stands in parentheses, names a line of a cart, an order or a
// receipt (Order total, You save, Discount, Rabatt, Sous-total), whose
// parentheses set the amount off, as a shop writes them, where a
// statement's (Net income, Total) write a negative amount
// (inAccountingParens).
func shopLabel(label string) bool {
	for _, w := range lowerWords(label) {
		if shopLabelWords[w] {
			return true
		}
	}
	return false
}

// shopLabelWords are the words of shopLabel: saving, discount, coupon,
// order, cart, subtotal and shipping. Total alone is not one: a
// statement's totals are negative as often as its lines.
var shopLabelWords = map[string]bool{
	// English
	"save": true, "saving": true, "savings": true, "discount": true, "coupon": true, "voucher": true, "promo": true,
	"order": true, "cart": true, "basket": true, "subtotal": true, "shipping": true, "delivery": true,
	// German
	"sparen": true, "ersparnis": true, "rabatt": true, "gutschein": true, "bestellung": true, "warenkorb": true,
	"zwischensumme": true, "versand": true, "lieferung": true,
	// French
	"économisez": true, "économie": true, "remise": true, "réduction": true, "commande": true, "panier": true,
	"sous": true, "livraison": true,
	// Spanish
	"ahorra": true, "ahorro": true, "descuento": true, "cupón": true, "pedido": true, "carrito": true, "envío": true,
	// Italian
	"risparmi": true, "risparmio": true, "sconto": true, "ordine": true, "carrello": true, "subtotale": true,
	"spedizione": true,
	// Dutch
	"bespaar": true, "besparing": true, "korting": true, "bestelling": true, "winkelwagen": true, "subtotaal": true,
	"verzending": true,
}

// isPriceLabel reports whether word is a label a shop writes before a
// price (priceLabelWords), whatever its case: Prix, PREIS, Cena. A word
// written with a capital before a number is a name's otherwise
// (afterName: Pixel 8 699 €).
func isPriceLabel(word string) bool {
	w := strings.ToLower(word)
	return priceLabelWords[w]
}

// priceLabelWords are the words of isPriceLabel: price, total and
// amount, from and only, and the taxes a price includes (Prix TTC, Preis
// inkl. MwSt), in the languages of this file and in those whose pages
// group thousands with spaces (pageGroupsBySpace: Czech, Polish, Slovak,
// Swedish, Danish, Norwegian, Finnish, Portuguese, Hungarian, Russian,
// Ukrainian).
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
