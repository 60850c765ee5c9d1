# Tether's shell integration for bash, read as bash's --rcfile. It reads the files bash would have
# read itself (the start command drops `-l`, since a login bash ignores --rcfile), then marks each
# prompt and command with OSC 133 and reports the folder with OSC 7. Nothing of the user's is
# changed: their PROMPT_COMMAND and DEBUG trap keep running, after Tether's own step.
if [ -n "$__TETHER_BASH_LOGIN" ]; then
  unset __TETHER_BASH_LOGIN
  [ -r /etc/profile ] && . /etc/profile
  if [ -r ~/.bash_profile ]; then . ~/.bash_profile
  elif [ -r ~/.bash_login ]; then . ~/.bash_login
  elif [ -r ~/.profile ]; then . ~/.profile
  fi
else
  [ -r ~/.bashrc ] && . ~/.bashrc
fi

# A shell that already marks its commands (the user's rc, another terminal's integration) is left
# alone. The pattern is split so that this file's own text never matches it.
__tether_marks=']13''3;'
case "$VSCODE_SHELL_INTEGRATION$ITERM_SHELL_INTEGRATION_INSTALLED" in
  ?*) __tether_marks= ;;
esac
if [ -n "$__tether_marks" ]; then
  case "$PS1 ${PROMPT_COMMAND[*]} $(trap -p DEBUG) $(declare -f)" in
    *"$__tether_marks"*) __tether_marks= ;;
  esac
fi

if [ -n "$__tether_marks" ] && [ -z "$__tether_installed" ]; then
  __tether_installed=1
  __tether_ran=0
  __tether_at_prompt=0
  __tether_history=

  # Percent-encodes $1 into __tether_url (letters, digits and -._~/ stay).
  __tether_encode() {
    local LC_ALL=C text=$1 out= char i
    for (( i = 0; i < ${#text}; i++ )); do
      char=${text:i:1}
      case $char in
        [a-zA-Z0-9/._~-]) out+=$char ;;
        *) printf -v char '%%%02X' "'$char"; out+=$char ;;
      esac
    done
    __tether_url=$out
  }

  # First in PROMPT_COMMAND: ends the command that ran (with its status) and reports the folder.
  __tether_precmd() {
    local status=$?
    if [ "$__tether_ran" = 1 ]; then
      builtin printf '\e]133;D;%s\a' "$status"
      __tether_ran=0
    fi
    __tether_encode "$PWD"
    builtin printf '\e]7;file://%s%s\a' "$HOSTNAME" "$__tether_url"
    return $status
  }

  # Last in PROMPT_COMMAND, after whatever sets the prompt: the prompt starts with A, ends with B.
  __tether_prompt() {
    local status=$?
    case "$PS1" in
      *'\[\e]133;B\a\]') ;;
      *) PS1='\[\e]133;A\a\]'"$PS1"'\[\e]133;B\a\]' ;;
    esac
    __tether_at_prompt=1
    return $status
  }

  # The DEBUG trap runs before every simple command; the first one after a prompt starts the line.
  __tether_preexec() {
    [ "$__tether_at_prompt" = 1 ] || return 0
    __tether_at_prompt=0
    # An empty line runs nothing but PROMPT_COMMAND: no command, and a new prompt.
    case "$BASH_COMMAND" in __tether_precmd*) return 0 ;; esac
    __tether_ran=1
    local entry line=$BASH_COMMAND
    entry=$(HISTTIMEFORMAT= builtin history 1)
    # The whole line from history, when it went there (a line with a leading space may not).
    if [[ $entry =~ ^\ *([0-9]+)\*?\ \ (.*)$ ]] && [ "${BASH_REMATCH[1]}" != "$__tether_history" ]; then
      __tether_history=${BASH_REMATCH[1]}
      line=${BASH_REMATCH[2]}
    fi
    __tether_encode "$line"
    builtin printf '\e]133;C;cmdline_url=%s\a' "$__tether_url"
  }

  if [[ "$(declare -p PROMPT_COMMAND 2>/dev/null)" == "declare -a"* ]]; then
    PROMPT_COMMAND=(__tether_precmd "${PROMPT_COMMAND[@]}" __tether_prompt)
  else
    PROMPT_COMMAND="__tether_precmd${PROMPT_COMMAND:+$'\n'$PROMPT_COMMAND}"$'\n'"__tether_prompt"
  fi

  # The user's own DEBUG trap (bash-preexec's, say) runs first and sees its $_ unchanged.
  __tether_user_trap() { __tether_user_debug=$2; }
  __tether_user_debug=
  __tether_trap=$(trap -p DEBUG)
  [ -n "$__tether_trap" ] && eval "__tether_user_trap ${__tether_trap#trap }"
  unset -f __tether_user_trap
  unset __tether_trap
  trap "${__tether_user_debug:+$__tether_user_debug$'\n'}__tether_preexec" DEBUG
fi
unset __tether_marks
