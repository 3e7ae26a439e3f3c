//! Rules as a person writes them on a command line: a name, or the fields
//! that differ from a game's default rule set, in any order, and the one
//! error every game gives for rules it cannot read.

/// Rules text read into a name or `name=value` fields (see
/// [`read_rules_text`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesText<'a> {
    /// One word with no `=`: the name of a rule set.
    Name(&'a str),
    /// `name=value` words, in the order given, each field once.
    Fields(Vec<(&'a str, &'a str)>),
}

crate::coded_error! {
    /// Why rules text is neither a name nor fields.
    #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
    #[non_exhaustive]
    pub enum RulesTextError {
        /// A word among fields that is not `name=value`.
        #[error("{0:?} is not a field written name=value")]
        NotAField(String) => "not_a_field",
        /// A field given twice.
        #[error("the field {0:?} is given twice")]
        Repeated(String) => "repeated",
    }
}

crate::coded_error! {
    /// Why text names no rule set of a game, or fields make none: one error
    /// for every game, so that a program reading rules handles them alike.
    ///
    /// ```
    /// use dice_core::{VariantError, read_rules};
    /// use dice_core::toy::ToyVariant;
    ///
    /// let e = read_rules::<ToyVariant>("dice=9").unwrap_err();
    /// assert_eq!(e.code(), "bad_value");
    /// assert_eq!(e.to_string(), "dice may not be \"9\": 3 or 4");
    /// assert_eq!(
    ///     read_rules::<ToyVariant>("dice=3 dice=4"),
    ///     Err(VariantError::RepeatedField("dice".into()))
    /// );
    /// ```
    #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
    #[non_exhaustive]
    pub enum VariantError {
        /// No rule set has this name.
        #[error("no rule set is called {name:?}; the names are {names}")]
        UnknownName {
            /// The name given.
            name: String,
            /// The names there are, in words.
            names: &'static str,
        } => "unknown_name",
        /// No field has this name (or a word among fields is not `name=value`).
        #[error("no rule is called {field:?}; the rules are {fields}")]
        UnknownField {
            /// The field (or word) given.
            field: String,
            /// The fields there are, in words.
            fields: &'static str,
        } => "unknown_field",
        /// A field was given a value it does not take.
        #[error("{field} may not be {value:?}: {allowed}")]
        BadValue {
            /// The field.
            field: &'static str,
            /// The value given.
            value: String,
            /// What the field takes, in words.
            allowed: &'static str,
        } => "bad_value",
        /// A field given twice.
        #[error("the rule {0:?} is given twice")]
        RepeatedField(String) => "repeated_field",
        /// Two fields whose values do not go together.
        #[error("{first} and {second} do not go together: {why}")]
        Clash {
            /// One field, `name=value`.
            first: String,
            /// The other, `name=value`.
            second: String,
            /// Why not.
            why: &'static str,
        } => "clash",
        /// A record's rules text that is neither a name nor the game's one
        /// spelling of a rule set (every field, in order, one space apart).
        #[error("rules text {text:?} is neither a name nor {spelling}")]
        NotSpelledOut {
            /// The text given.
            text: String,
            /// How a record spells rules out, in words.
            spelling: &'static str,
        } => "rules",
    }
}

/// A rule set a person can write (see [`read_rules`]): each game's
/// `Variant` says what its names and fields are, and [`Default`] is the
/// rule set that fields are read as differences from.
pub trait ReadRules: Default {
    /// The fields there are, in words, for [`VariantError::UnknownField`].
    const FIELDS: &'static str;

    /// The rule set with this name.
    ///
    /// # Errors
    ///
    /// [`VariantError::UnknownName`] when no rule set has the name.
    fn named(name: &str) -> Result<Self, VariantError>;

    /// This rule set with one field set from its text.
    ///
    /// # Errors
    ///
    /// [`VariantError::UnknownField`] when there is no such field,
    /// [`VariantError::BadValue`] when it does not take the value.
    fn with_field(self, field: &str, value: &str) -> Result<Self, VariantError>;

    /// The rule set that `fields` (each `name=value` once, in the order
    /// given) make of the default one. The default sets them one by one
    /// with [`ReadRules::with_field`]; a game whose fields depend on each
    /// other (one field's allowed values on another's) reads them all
    /// before it judges any combination, so that their order does not
    /// matter.
    ///
    /// # Errors
    ///
    /// As [`ReadRules::with_field`], or [`VariantError::Clash`] when the
    /// fields together make no rule set.
    fn from_fields(fields: &[(&str, &str)]) -> Result<Self, VariantError> {
        fields
            .iter()
            .try_fold(Self::default(), |v, &(field, value)| {
                v.with_field(field, value)
            })
    }
}

/// Reads rules as a person writes them, the same way for every game: a
/// name, or the fields that differ from the game's default rule set as
/// `name=value` words in any order (see [`read_rules_text`]).
///
/// ```
/// use dice_core::read_rules;
/// use dice_core::toy::ToyVariant;
///
/// let v: ToyVariant = read_rules("dice=4")?;
/// assert_eq!((v.goal, v.dice), (12, 4));
/// assert_eq!(read_rules::<ToyVariant>("toy")?, ToyVariant::default());
/// assert!(read_rules::<ToyVariant>("dice=4 dice=3").is_err());
/// # Ok::<(), dice_core::VariantError>(())
/// ```
///
/// # Errors
///
/// The game's [`VariantError`] for a name it does not know, a field that
/// does not exist or a value a field does not take;
/// [`VariantError::UnknownField`] for a word among fields that is not one,
/// and [`VariantError::RepeatedField`] for a field given twice.
pub fn read_rules<V: ReadRules>(text: &str) -> Result<V, VariantError> {
    match read_rules_text(text) {
        Ok(RulesText::Name(name)) => V::named(name),
        Ok(RulesText::Fields(fields)) => V::from_fields(&fields),
        Err(RulesTextError::Repeated(field)) => Err(VariantError::RepeatedField(field)),
        Err(RulesTextError::NotAField(word)) => Err(VariantError::UnknownField {
            field: word,
            fields: V::FIELDS,
        }),
    }
}

/// Splits rules text a person wrote into a name or fields, so that a game
/// can read it the same way for every game: one word with no `=` is a name;
/// otherwise every word (separated by any whitespace) is a `name=value`
/// field, in any order, and no field comes twice. Whether the name or the
/// fields mean anything is for the game to say. (A record's rules line is
/// stricter: a name, or every field in the game's order.)
///
/// ```
/// use dice_core::{RulesText, RulesTextError, read_rules_text};
///
/// assert_eq!(read_rules_text("finkel"), Ok(RulesText::Name("finkel")));
/// assert_eq!(
///     read_rules_text("route=long  pieces=5"),
///     Ok(RulesText::Fields(vec![("route", "long"), ("pieces", "5")]))
/// );
/// assert_eq!(
///     read_rules_text("pieces=3 pieces=4"),
///     Err(RulesTextError::Repeated("pieces".into()))
/// );
/// assert_eq!(
///     read_rules_text("masters pieces=5"),
///     Err(RulesTextError::NotAField("masters".into()))
/// );
/// ```
///
/// # Errors
///
/// [`RulesTextError::NotAField`] for a word without `=` among several, and
/// [`RulesTextError::Repeated`] for a field given twice.
pub fn read_rules_text(text: &str) -> Result<RulesText<'_>, RulesTextError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words[..] {
        [] => return Ok(RulesText::Name(text)),
        [word] if !word.contains('=') => return Ok(RulesText::Name(word)),
        _ => {}
    }
    let mut fields: Vec<(&str, &str)> = Vec::with_capacity(words.len());
    for word in words {
        let (field, value) = word
            .split_once('=')
            .ok_or_else(|| RulesTextError::NotAField(word.to_owned()))?;
        if fields.iter().any(|&(seen, _)| seen == field) {
            return Err(RulesTextError::Repeated(field.to_owned()));
        }
        fields.push((field, value));
    }
    Ok(RulesText::Fields(fields))
}
