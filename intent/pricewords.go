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
