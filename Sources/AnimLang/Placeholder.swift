public enum AnimLangPlaceholder {}
