/** A length in points as CSS writes it, to two decimals (MuPDF's HTML layout reads it). */
export const pt = (n: number) => `${Math.round(n * 100) / 100}pt`;
