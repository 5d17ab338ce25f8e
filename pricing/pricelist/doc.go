// Package pricelist reads price lists into pricing.Offer values, as image's
// decoders live apart from package image: the formats change whenever a provider
// changes its page, and package pricing, which prices the offers, does not.
//
// Read takes a list in any format the package knows, tells the format from the
// content and names it; most callers want it (ReadList also says which rows were
// left out, and why). The readers of each format:
//
//   - ReadCSV: gpuplan's own CSV, one offer a row, Chinese headings included
//     (服务商, 卡型, 按量, 包月, ...), with prices that carry their units ("¥8.00",
//     "8元/小时").
//   - ReadJSON: gpuplan's own JSON, an array of offers as pricing.Offer's JSON.
//   - ReadSkyPilot: a SkyPilot catalog vms.csv, one offer per instance shape (and
//     an interruptible one for its spot price).
//   - ReadVast: vast.ai's offers, as `vastai search offers --raw` prints them.
//
// Every offer read is valid (pricing.Offer.Validate), carries its line of the
// list (Offer.Line), and comes in file order. A list is at most 32 MiB of UTF-8.
// Errors are *ParseError values naming the line, the column or field, and the
// input; each wraps pricing.ErrInvalid (and pricing.ErrCurrencyMismatch for a
// price in another currency than its row's), and, where a rule of package
// pricing failed, the *pricing.FieldError that says which.
//
// The package has no state; every function is safe for concurrent use.
package pricelist
