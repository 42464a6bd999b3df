#pragma once
// ARFF (Weka's Attribute-Relation File Format, https://waikato.github.io/weka-wiki/formats_and_processors/arff_stable/).
//
//   % comment
//   @relation NAME
//   @attribute NAME numeric|real|integer|{v1, v2, ...}
//   @data
//   1.5, red, yes          (dense row; '?' = missing)
//   {0 1.5, 2 yes}         (sparse row: 0-based attribute index and value; absent = 0, or the
//                           first declared value for a nominal attribute, as in Weka)
//
// Keywords are case-insensitive; names and values may be quoted with ' or " (backslash escapes).
// What FDLab does with it:
// - the class attribute is LoadOptions::classAttribute, or the last attribute; it must be
//   nominal. Class names are its declared values in declared order, and a declared class with no
//   instance is an error naming the class (the learners and attacks need every class present).
//   A file declaring a single class loads fine.
// - numeric attributes become one feature each; nominal non-class attributes become one 0/1
//   feature per declared value, named "attr=value" (also two-valued ones: one-hot always, so a
//   model's weights read the same way for every nominal attribute).
// - '?' follows LoadOptions::missing: Error (DataError at the first '?'), DropRow, or Impute
//   (numeric: mean, nominal: mode -- ties go to the first declared value -- both computed over
//   the non-missing values of the kept rows). A missing class value is never imputed: under
//   Impute and DropRow the row is dropped. A column with no value at all to impute from is an
//   error naming its @attribute line.
// - string, date and relational attributes are refused ("unsupported attribute type"); instance
//   weights ("{w}" after a row) are not supported.
//
// Loaded through loadArff in core/data/loaders.h; there is no ARFF writer.
