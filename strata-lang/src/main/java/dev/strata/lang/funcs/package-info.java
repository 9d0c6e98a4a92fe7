/**
 * Terraform's built-in function library and the API to call functions.
 *
 * <p>Entry points: {@link dev.strata.lang.funcs.Functions#builtins(FunctionContext)} returns a
 * {@link dev.strata.lang.funcs.FunctionTable}; {@link dev.strata.lang.funcs.Function#call} calls
 * one function and returns a {@link dev.strata.lang.funcs.CallResult} that on failure names the
 * argument at fault. Functions that need the expression evaluator ({@code templatefile},
 * {@code templatestring}, {@code can}, {@code try}) are added later with
 * {@link dev.strata.lang.funcs.FunctionTable#with(Function)}.
 */
package dev.strata.lang.funcs;
