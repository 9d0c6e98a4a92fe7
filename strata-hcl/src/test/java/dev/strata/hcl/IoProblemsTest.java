package dev.strata.hcl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoProblemsTest {
    @TempDir
    Path dir;

    @Test
    void fileErrorsNameThePathAndTheOsReason() throws IOException {
        Path missing = dir.resolve("nope.tfvars");
        IOException e = catchThrowableOfType(IOException.class, () -> Files.readAllBytes(missing));
        assertThat(IoProblems.describe("nope.tfvars", e)).isEqualTo("nope.tfvars: no such file or directory");
        assertThat(IoProblems.describe(e)).isEqualTo(missing + ": no such file or directory");

        Path sub = Files.createDirectory(dir.resolve("sub"));
        IOException isDir = catchThrowableOfType(IOException.class, () -> Files.readAllBytes(sub));
        assertThat(IoProblems.reason(isDir)).isEqualTo("is a directory");

        Path file = Files.writeString(dir.resolve("f"), "x");
        IOException notDir = catchThrowableOfType(IOException.class, () -> Files.readAllBytes(file.resolve("g")));
        assertThat(IoProblems.reason(notDir)).isEqualTo("not a directory");

        assertThat(IoProblems.reason(new java.nio.file.AccessDeniedException("/x")))
                .isEqualTo("permission denied");
        assertThat(IoProblems.reason(new IOException())).isEqualTo("input/output error");
    }

    @Test
    void jsonErrorsArePositionAndProblemWithoutJacksonWording() {
        ObjectMapper mapper = JsonMapper.builder()
                .enable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
                .build();
        ObjectMapper redacted = new ObjectMapper();
        for (ObjectMapper m : new ObjectMapper[] {mapper, redacted}) {
            JacksonException garbage =
                    catchThrowableOfType(JacksonException.class, () -> m.readTree("{\n  \"a\": garbage}"));
            assertThat(IoProblems.json(garbage))
                    .startsWith("line 2, column 8: unrecognized token 'garbage'")
                    .doesNotContain("Source")
                    .doesNotContain("Feature")
                    .doesNotContain("REDACTED");
            JacksonException eof = catchThrowableOfType(JacksonException.class, () -> m.readTree("{\"a\": [1, 2"));
            assertThat(IoProblems.reason(eof))
                    .startsWith("line 1, column ")
                    .contains("end-of-input")
                    .doesNotContain("Source")
                    .doesNotContain("[")
                    .doesNotContain("Feature");
        }
    }
}
