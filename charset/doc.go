// Package charset holds the string patterns the tables share and says
// what a pattern allows in words: NonBlank, the project's non-blank rule,
// and PatternWords, which turns a character-class pattern into "may
// contain only letters, digits, ...".
package charset
