/**
 * Terraform's built-in function library and the API to call functions.
 *
 * <p>Entry points: {@link dev.strata.lang.funcs.Functions#builtins(FunctionContext)} returns a
 * {@link dev.strata.lang.funcs.FunctionTable}; {@link dev.strata.lang.funcs.Function#call} calls
 * one function and returns a {@link dev.strata.lang.funcs.CallResult} that on failure names the
 * argument at fault. The evaluator completes the library: {@code try} and {@code can} are special
 * forms it evaluates itself, and {@code dev.strata.lang.eval.TemplateFunctions.builtins} adds
 * {@code templatefile} and {@code templatestring} to give the complete table.
 */
package dev.strata.lang.funcs;
