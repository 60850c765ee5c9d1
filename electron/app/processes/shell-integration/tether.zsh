# Tether's marks for zsh: OSC 133 around each prompt and command, OSC 7 with the folder. They are
# installed at the first prompt, once the user's .zshrc has run: a shell already integrated is left
# alone, and the hooks go around the user's (status first, prompt marks after any theme's).
autoload -Uz add-zsh-hook

__tether_encode() {
  emulate -L zsh
  setopt extendedglob
  local LC_ALL=C
  # Every byte but letters, digits and -._~/ as %XX.
  REPLY=${1//(#m)[^a-zA-Z0-9\/._~-]/%${(l:2::0:)$(( [##16] #MATCH ))}}
}

__tether_status() { typeset -g __tether_last=$? }

__tether_precmd() {
  if (( __tether_ran )); then
    builtin printf '\e]133;D;%s\a' $__tether_last
    __tether_ran=0
  fi
  __tether_encode $PWD
  builtin printf '\e]7;file://%s%s\a' $HOST $REPLY
  builtin printf '\e]133;A\a'
  [[ $PS1 == *$'%{\e]133;B\a%}' ]] || PS1=$PS1$'%{\e]133;B\a%}'
}

__tether_preexec() {
  __tether_ran=1
  __tether_encode $1
  builtin printf '\e]133;C;cmdline_url=%s\a' $REPLY
}

__tether_install() {
  add-zsh-hook -d precmd __tether_install
  local name marked=
  [[ -n $VSCODE_SHELL_INTEGRATION$ITERM_SHELL_INTEGRATION_INSTALLED ]] && marked=1
  [[ $PS1 == *']133;'* ]] && marked=1
  for name in ${(k)functions}; do
    [[ $name == __tether_* ]] && continue
    [[ $functions[$name] == *']133;'* ]] && marked=1
  done
  if [[ -n $marked ]]; then
    unfunction __tether_status __tether_precmd __tether_preexec __tether_encode
    return
  fi
  typeset -g __tether_ran=0 __tether_last=0
  precmd_functions=(__tether_status $precmd_functions __tether_precmd)
  add-zsh-hook preexec __tether_preexec
  __tether_precmd
}

add-zsh-hook precmd __tether_install
