package dev.strata.hcl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GoUnicodeTest {
    @Test
    void lettersMarksNumbersPunctuationSymbolsAndTheAsciiSpaceArePrintable() {
        for (int cp : new int[] {'a', 'Z', '7', '-', '"', '~', ' ', 0xE9, 0x0301, 0x20AC, 0x4E2D, 0x1F600}) {
            assertThat(GoUnicode.isPrint(cp)).as("U+%04X", cp).isTrue();
        }
    }

    @Test
    void controlsFormatsOtherSpacesSeparatorsAndUnassignedAreNot() {
        for (int cp :
                new int[] {'\t', '\n', 0x7F, 0x85, 0xA0, 0x200B, 0x2028, 0x2029, 0x3000, 0xE000, 0xD800, 0x0378}) {
            assertThat(GoUnicode.isPrint(cp)).as("U+%04X", cp).isFalse();
        }
    }
}
